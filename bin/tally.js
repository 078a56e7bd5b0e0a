#!/usr/bin/env node
// The `tally` command runs the compiled build; `npm install` builds it (see package.json "prepare").
require('reflect-metadata');
require('../dist/host/cli/main.js').main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error) => { console.error(error instanceof Error ? error.message : error); process.exitCode = 1; },
);
