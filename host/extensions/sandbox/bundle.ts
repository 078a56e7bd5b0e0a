import path from 'node:path';
import { builtinModules } from 'node:module';
import { build, BuildOptions, Plugin } from 'esbuild';

const KIT = path.resolve(__dirname, '..', 'kit');
/** The kit as TypeScript source, which an in-project index.ts imports when bundled as source. */
const KIT_SOURCE = path.resolve(__dirname, '..', '..', '..', '..', 'host', 'extensions', 'kit');
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

const COMMON: BuildOptions = {
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'neutral',
  mainFields: ['main', 'module'],
  conditions: ['require', 'default'],
  target: 'es2022',
  logLevel: 'silent',
  tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
};

let runtime: Promise<string> | undefined;

/**
 * The sandbox's runtime, evaluated first in every context: the kit (with Kysely and luxon), the
 * bridge to the host and the `crypto` the sandbox offers, left on `globalThis.__tallyRuntime` for
 * the extension's own script. Bundled once per process and shared by every extension, so loading
 * an extension only bundles its own code.
 */
export function runtimeBundle(): Promise<string> {
  return (runtime ??= (async () => {
    const contents = [
      `import * as kit from ${JSON.stringify(path.join(KIT, 'index.js'))};`,
      `import * as crypto from ${JSON.stringify(path.join(KIT, 'crypto.js'))};`,
      `import { boot } from ${JSON.stringify(path.join(KIT, 'boot.js'))};`,
      'globalThis.__tallyRuntime = { kit, crypto, boot };',
    ].join('\n');
    const result = await build({ ...COMMON, minify: true, stdin: { contents, resolveDir: KIT, sourcefile: 'tally-sandbox-runtime.js', loader: 'js' } });
    return result.outputFiles![0].text;
  })());
}

/**
 * One script holding the extension and its npm dependencies, for a sandbox that has no module
 * loader; the kit and `crypto` come from the runtime. Node's modules are not bundled: an import of
 * `fs`, `child_process`, `net`, ... makes loading fail with the reason, since the sandbox would not
 * have them anyway. TypeScript is compiled here too (decorators included).
 */
export async function bundleExtension(entry: string): Promise<string> {
  const start = `import * as extension from ${JSON.stringify(entry)};\nglobalThis.__tallyRuntime.boot(extension);\n`;
  const result = await build({
    ...COMMON,
    stdin: { contents: start, resolveDir: path.dirname(entry), sourcefile: 'tally-sandbox-start.js', loader: 'js' },
    plugins: [sandboxModules()],
  }).catch((error: { errors?: Array<{ text: string; pluginName?: string; location?: { file: string; line: number } | null }> }) => {
    const first = error.errors?.[0];
    if (!first) throw new Error(String(error));
    // Most of what esbuild refuses is a syntax error; a missing module or a Node import says so itself.
    const kind = first.pluginName || first.text.startsWith('Could not resolve') ? '' : 'SyntaxError: ';
    throw new Error(`${kind}${first.text}${first.location ? ` (at ${first.location.file}:${first.location.line})` : ''}`);
  });
  return result.outputFiles![0].text;
}

/** The kit and `crypto` from the runtime; Node's modules refused with the reason. */
function sandboxModules(): Plugin {
  return {
    name: 'tally-sandbox',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.path === 'crypto' || args.path === 'node:crypto') return { path: 'crypto', namespace: 'tally-runtime' };
        if (BUILTINS.has(args.path))
          return {
            errors: [
              {
                text: `It imports the Node module "${args.path}", which extensions cannot use: the sandbox offers its own tables (ctx.db), declared methods (ctx.models), settings and HTTP to declared hosts (ctx.http).`,
              },
            ],
          };
        const target = args.path.startsWith('.') || path.isAbsolute(args.path) ? path.resolve(args.resolveDir, args.path) : null;
        if (target && [KIT, KIT_SOURCE].some((kit) => target === kit || target.startsWith(kit + path.sep))) return { path: 'kit', namespace: 'tally-runtime' };
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'tally-runtime' }, (args) => ({ contents: `module.exports = globalThis.__tallyRuntime.${args.path === 'crypto' ? 'crypto' : 'kit'};`, loader: 'js' }));
    },
  };
}
