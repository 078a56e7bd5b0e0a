#!/usr/bin/env -S node --no-node-snapshot
// --no-node-snapshot: isolated-vm (the extension sandbox) asks for it on Node 20.
// The `tally` command runs the compiled build in dist/: `npm install` (prepare), `npm start` and `npm test` all build it.
require('reflect-metadata');
require('../dist/host/cli/main.js')
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
