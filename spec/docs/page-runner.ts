import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Block } from './doc-blocks';

/** The base URL the pages write; the runner points it at the spec's server. */
export const DOCUMENTED_URL = 'http://localhost:8080';

export interface StepResult {
  readonly block: Block;
  readonly line: number;
  readonly expected?: string;
  readonly stdout: string;
  readonly stderr: string;
}

export interface PageRun {
  /** 0 when every block ran; else the failing step is the last of `steps`. */
  readonly status: number | null;
  readonly steps: StepResult[];
  readonly output: string;
}

export interface PageEnvironment {
  /** The fresh copy of the project the commands run in (`npx tally` runs its bin/tally.js). */
  readonly cwd: string;
  readonly url: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
}

/**
 * One page's shell blocks as one bash session, in page order, so a variable set in one block is
 * there in the next, as for a reader with one terminal. Each command that fails stops the page
 * (`set -e`), and curl fails on an HTTP error status (`--fail-with-body`), except in blocks
 * marked `doc-spec: fails`. `npx tally` runs the copy's bin/tally.js directly: the same program
 * without npm's start-up time on a shared machine.
 */
export async function runPage(blocks: readonly Block[], environment: PageEnvironment): Promise<PageRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-doc-'));
  const planned: Array<{ block: Block; step: Block['steps'][number]; id: number }> = [];
  const script: string[] = [
    'set -eo pipefail',
    `cd ${quote(environment.cwd)}`,
    'DOC_SPEC_FAILS=0',
    'curl() { if [ "$DOC_SPEC_FAILS" = 1 ]; then command curl -sS -w "\\n" "$@"; else command curl -sS --fail-with-body -w "\\n" "$@"; fi; }',
    `npx() { if [ "$1" = tally ]; then shift; node ${quote(path.join(environment.cwd, 'bin', 'tally.js'))} "$@"; else command npx "$@"; fi; }`,
  ];
  for (const block of blocks) {
    const stdin = path.join(dir, `stdin-${planned.length}`);
    fs.writeFileSync(stdin, block.stdin === undefined ? '' : `${block.stdin}\n`);
    script.push(`DOC_SPEC_FAILS=${block.fails ? 1 : 0}`, block.fails ? 'set +e' : 'set -e');
    for (const step of block.steps) {
      const id = planned.length;
      planned.push({ block, step, id });
      script.push(
        `echo ${id} > ${quote(path.join(dir, 'current'))}`,
        '{',
        step.script.split(DOCUMENTED_URL).join(environment.url),
        `} > ${quote(path.join(dir, `${id}.out`))} 2> ${quote(path.join(dir, `${id}.err`))} < ${quote(stdin)}`,
      );
    }
  }
  script.push('set -e', `echo done > ${quote(path.join(dir, 'current'))}`);
  fs.writeFileSync(path.join(dir, 'page.sh'), script.join('\n') + '\n');
  const { status, output } = await bash(path.join(dir, 'page.sh'), environment);
  const reached = fs.readFileSync(path.join(dir, 'current'), 'utf8').trim();
  const last = reached === 'done' ? planned.length - 1 : Number(reached);
  const steps = planned.slice(0, last + 1).map(({ block, step, id }) => ({
    block,
    line: step.line,
    expected: step.expected,
    stdout: read(path.join(dir, `${id}.out`)),
    stderr: read(path.join(dir, `${id}.err`)),
  }));
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: reached === 'done' ? status : status || 1, steps, output };
}

function bash(file: string, environment: PageEnvironment): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [file], { cwd: environment.cwd, env: environment.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), environment.timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
