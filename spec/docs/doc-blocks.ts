import fs from 'node:fs';
import path from 'node:path';

/**
 * The shell examples of the documentation, as a reader meets them. A page is the README or any
 * `docs/*.md` (found by listing, so a new page is picked up without touching the spec). A shell
 * block is a fenced block whose info string is sh, bash, shell or console. The conventions a page
 * may use are in docs/writing-docs.md:
 *
 * - `# => <answer>` after a command: what it prints (its last line), compared as JSON when it is
 *   JSON; a string "..." in the documented answer stands for any value.
 * - `<!-- doc-spec: skip (reason) -->` just before a block: not run (it starts the server, needs a
 *   second machine...); the reason is required.
 * - `<!-- doc-spec: stdin <text> -->` just before a block: what is typed into it (a password).
 * - `<!-- doc-spec: fails -->` just before a block: it shows an error on purpose; its commands
 *   may fail, and its `# =>` answers are still compared.
 */
export const SHELL_LANGUAGES = ['sh', 'bash', 'shell', 'console'];

export interface Step {
  /** The command lines of this step, up to its documented answer. */
  readonly script: string;
  readonly expected?: string;
  /** Line of the page where the step starts, for messages. */
  readonly line: number;
}

export interface Block {
  readonly page: string;
  readonly line: number;
  readonly language: string;
  readonly text: string;
  readonly skip?: string;
  readonly stdin?: string;
  readonly fails: boolean;
  readonly steps: readonly Step[];
}

/** The pages in reading order: the README, then docs/*.md by name. */
export function documentationPages(root: string): string[] {
  const docs = fs.existsSync(path.join(root, 'docs'))
    ? fs
        .readdirSync(path.join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => path.join('docs', f))
    : [];
  return ['README.md', ...docs];
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const MARKER = /^<!--\s*doc-spec:\s*(skip|stdin|fails)\b\s*(.*?)\s*-->\s*$/;

/** Every fenced block of a page (shell or not), with the doc-spec markers written just before it. */
export function fencedBlocks(page: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let markers: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const marker = lines[i].match(MARKER);
    if (marker) {
      markers[marker[1]] = marker[2];
      continue;
    }
    const fence = lines[i].match(FENCE);
    if (!fence) {
      if (lines[i].trim() !== '') markers = {};
      continue;
    }
    const close = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence[2]) && l.trim().replace(/[`~]/g, '') === '');
    const end = close === -1 ? lines.length : close;
    const body = lines.slice(i + 1, end).map((l) => l.slice(Math.min(fence[1].length, l.length - l.trimStart().length)));
    blocks.push({
      page,
      line: i + 1,
      language: fence[3].toLowerCase(),
      text: body.join('\n'),
      skip: 'skip' in markers ? markers.skip || '(no reason given)' : undefined,
      stdin: markers.stdin,
      fails: 'fails' in markers,
      steps: steps(body, i + 2),
    });
    markers = {};
    i = end;
  }
  return blocks;
}

export function isShell(block: Block): boolean {
  return SHELL_LANGUAGES.includes(block.language);
}

/** A block cut at its `# =>` lines: each step is the commands before one documented answer. */
function steps(body: string[], firstLine: number): Step[] {
  const result: Step[] = [];
  let current: string[] = [];
  let start = firstLine;
  body.forEach((line, k) => {
    const answer = line.match(/^\s*# =>\s?(.*)$/);
    if (answer) {
      result.push({ script: current.join('\n'), expected: answer[1].trim(), line: start });
      current = [];
      start = firstLine + k + 1;
    } else current.push(line);
  });
  if (current.some((l) => l.trim() && !l.trim().startsWith('#'))) result.push({ script: current.join('\n'), line: start });
  return result;
}
