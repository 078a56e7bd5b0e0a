import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, TestServer } from '../support/test-server';
import { Block, documentationPages, fencedBlocks, isShell } from './doc-blocks';
import { matchesDocumented } from './documented-answer';
import { DOCUMENTED_URL, PageRun, runPage } from './page-runner';

/** The project as checked out: dist/spec/docs → the root. */
const ROOT = path.resolve(__dirname, '../../..');
const PAGE_TIMEOUT_MS = 180_000;

/**
 * A copy of the project to run the pages in, as a fresh clone after `npm install`: commands that
 * write files (`tally extension new`, `tally docs`) write there, never into the working tree.
 * node_modules is linked, not copied.
 */
function freshCopy(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-docs-project-'));
  const skip = new Set(['node_modules', '.git', 'data']);
  for (const entry of fs.readdirSync(ROOT)) {
    if (skip.has(entry)) continue;
    fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true, filter: (src) => !src.startsWith(path.join(ROOT, 'docs', 'api')) });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

function describeFailure(run: PageRun): string {
  const last = run.steps[run.steps.length - 1];
  if (!last) return run.output;
  return `${last.block.page}:${last.line} failed (status ${run.status}):\n${last.stdout}\n${last.stderr}\n${run.output}`.slice(0, 4000);
}

const pages = documentationPages(ROOT).map((page) => ({ page, blocks: fencedBlocks(page, fs.readFileSync(path.join(ROOT, page), 'utf8')) }));

describe('the documentation runs as written', function () {
  this.timeout(PAGE_TIMEOUT_MS + 30_000);
  let copy: string;
  before(() => {
    copy = freshCopy();
  });
  after(() => fs.rmSync(copy, { recursive: true, force: true }));

  it('finds the README and every docs/*.md page', () => {
    const listed = [
      'README.md',
      ...fs
        .readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    expect(pages.map((p) => p.page).sort()).to.deep.equal(listed.sort());
    expect(pages.flatMap((p) => p.blocks).filter(isShell).length).to.be.greaterThan(20);
  });

  it('names the language of every fenced block, so no shell example escapes the check', () => {
    const unnamed = pages
      .flatMap((p) => p.blocks)
      .filter((b) => b.language === '')
      .map((b) => `${b.page}:${b.line}`);
    expect(unnamed).to.deep.equal([]);
  });

  it('names one set of credentials everywhere: TALLY_URL, TALLY_USER, TALLY_KEY', () => {
    const offenders: string[] = [];
    for (const { page } of pages) {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
      for (const bad of ['$USER', '$KEY', '$API_USER', '$API_KEY', '${USER}', '"$TALLY"', '$TALLY/']) {
        if (text.includes(bad)) offenders.push(`${page}: ${bad}`);
      }
    }
    expect(offenders).to.deep.equal([]);
  });

  it('gives a reason for every block it does not run, and runs all the others', () => {
    const skipped = pages.flatMap((p) => p.blocks).filter((b) => isShell(b) && b.skip !== undefined);
    for (const block of skipped) expect(block.skip, `${block.page}:${block.line}`).to.match(/^\(.{8,}\)$/);
    // Only blocks that start the server or need another machine are skipped (see docs/writing-docs.md).
    expect(skipped.length, skipped.map((b) => `${b.page}:${b.line} ${b.skip}`).join('\n')).to.be.at.most(4);
  });

  for (const { page, blocks } of pages) {
    const runnable = blocks.filter((b: Block) => isShell(b) && b.skip === undefined);
    if (!runnable.length) continue;
    it(`${page}: every shell block runs in page order on a fresh database, answering as documented`, async () => {
      const server: TestServer = await startTestServer({ extensionsDir: path.join(copy, 'extensions'), events: { pollMs: 50 } });
      try {
        const env: Record<string, string> = {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? copy,
          LANG: 'C.UTF-8',
          DATABASE_URL: server.database.url,
          LOG_LEVEL: 'silent',
          TALLY_URL: server.url,
          TALLY_USER: server.credential.user,
          TALLY_KEY: server.credential.key,
        };
        const run = await runPage(runnable, { cwd: copy, url: server.url, env, timeoutMs: PAGE_TIMEOUT_MS });
        expect(run.status, describeFailure(run)).to.equal(0);
        const checked = run.steps.filter((s) => s.expected !== undefined);
        for (const step of checked) {
          expect(matchesDocumented(step.stdout, step.expected!), `${page}:${step.line} documents ${step.expected}, printed:\n${step.stdout}${step.stderr}`).to.equal(true);
        }
      } finally {
        await server.close();
      }
    });
  }
});

describe('the documentation check itself', function () {
  this.timeout(60_000);

  it('reads blocks, their languages, markers and documented answers', () => {
    const page = [
      '<!-- doc-spec: skip (starts the server) -->',
      '```sh',
      'npm start',
      '```',
      '<!-- doc-spec: stdin secret words -->',
      '```bash',
      'echo one',
      '# => one',
      'echo two',
      '```',
      '```json',
      '{}',
      '```',
    ].join('\n');
    const blocks = fencedBlocks('x.md', page);
    expect(blocks.map((b) => [b.language, b.skip, b.stdin])).to.deep.equal([
      ['sh', '(starts the server)', undefined],
      ['bash', undefined, 'secret words'],
      ['json', undefined, undefined],
    ]);
    expect(blocks[1].steps).to.deep.equal([
      { script: 'echo one', expected: 'one', line: 7 },
      { script: 'echo two', line: 9 },
    ]);
  });

  it('compares answers as JSON, with "..." for any value', () => {
    expect(matchesDocumented('{"response":1}\n', '{"response":1}')).to.equal(true);
    expect(matchesDocumented('{"response": 1}', '{"response":1}')).to.equal(true);
    expect(matchesDocumented('{"response":2}', '{"response":1}')).to.equal(false);
    expect(matchesDocumented('{"response":{"id":1,"key":"abc"}}', '{"response":{"id":1,"key":"..."}}')).to.equal(true);
    expect(matchesDocumented('{"response":{"id":1}}', '{"response":{"id":1,"key":"..."}}')).to.equal(false);
    expect(matchesDocumented('API user: tly_1', 'API user: ...')).to.equal(true);
  });

  it('fails a page whose command fails, or whose call answers an HTTP error, and names the line', async () => {
    const server = await startTestServer();
    try {
      const env = { PATH: process.env.PATH ?? '', TALLY_URL: server.url, TALLY_USER: server.credential.user, TALLY_KEY: server.credential.key };
      const options = { cwd: ROOT, url: server.url, env, timeoutMs: 30_000 };
      const failing = fencedBlocks('bad.md', '```sh\necho fine\n# => fine\nfalse\necho never\n```');
      const run = await runPage(failing, options);
      expect(run.status).not.to.equal(0);
      expect(run.steps[run.steps.length - 1].line).to.equal(4);
      const http = fencedBlocks('http.md', `\`\`\`sh\ncurl -u "$TALLY_USER:$TALLY_KEY" "${DOCUMENTED_URL}/api/invoices/add.json" -d "vars[client_id]=1"\n\`\`\``);
      const refused = await runPage(http, options);
      expect(refused.status).not.to.equal(0);
      expect(refused.steps[0].stdout).to.contain('client_id');
      const shown = fencedBlocks('shown.md', `<!-- doc-spec: fails -->\n\`\`\`sh\ncurl -u "$TALLY_USER:$TALLY_KEY" "${DOCUMENTED_URL}/api/users/nope.json"\n# => {"message":"..."}\n\`\`\``);
      const allowed = await runPage(shown, options);
      expect(allowed.status).to.equal(0);
      expect(matchesDocumented(allowed.steps[0].stdout, allowed.steps[0].expected!)).to.equal(true);
    } finally {
      await server.close();
    }
  });
});
