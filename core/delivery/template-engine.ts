import { Liquid, LiquidError } from 'liquidjs';

/**
 * The template engine: LiquidJS, which has no way to run code (no eval, no access to prototypes
 * with ownPropertyOnly), configured the way the reference writes templates: `{tag}` prints a value
 * and `{% if %}`/`{% for %}` are tags. Bounded: a template is at most PARSE_LIMIT characters, a
 * render at most RENDER_LIMIT_MS and MEMORY_LIMIT (what loops and string filters may allocate).
 * Unknown tags and filters are errors, not blanks. HTML bodies escape every value they print.
 */
export const PARSE_LIMIT = 100_000;
const RENDER_LIMIT_MS = 1_000;
const MEMORY_LIMIT = 4_000_000;

function engine(escapeOutput: boolean): Liquid {
  return new Liquid({
    outputDelimiterLeft: '{',
    outputDelimiterRight: '}',
    tagDelimiterLeft: '{%',
    tagDelimiterRight: '%}',
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    // No file system: include, render and layout find nothing.
    relativeReference: false,
    templates: {},
    outputEscape: escapeOutput ? 'escape' : undefined,
    parseLimit: PARSE_LIMIT,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
  });
}

const plain = engine(false);
const html = engine(true);

export type BodyKind = 'plain' | 'html';

/** A template that does not parse, or names something the tags do not have, with the line it is on. */
export class TemplateProblem extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

function problemOf(error: unknown): TemplateProblem {
  if (error instanceof LiquidError) {
    const line = /line:(\d+)/.exec(error.message);
    // LiquidJS adds ", line:N, col:M" and sometimes the source after it; the first part is the reason.
    const reason = error.message.split(', line:')[0];
    return new TemplateProblem(reason, line ? Number(line[1]) : null);
  }
  return new TemplateProblem(error instanceof Error ? error.message : String(error), null);
}

/** Renders `source` with `tags`; a TemplateProblem when it does not parse, names an unknown tag or exceeds a limit. */
export function renderTemplate(source: string, tags: Record<string, unknown>, kind: BodyKind): string {
  const liquid = kind === 'html' ? html : plain;
  try {
    return liquid.parseAndRenderSync(source, tags);
  } catch (error) {
    throw problemOf(error);
  }
}
