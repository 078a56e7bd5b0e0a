require('/work/wt/i15/node_modules/reflect-metadata');
const { spawn } = require('child_process');
const { createScratchDatabase } = require('/work/wt/i15/dist/scripts/support/scratch-database');
const { seedRenewals, RUN_AT } = require('/work/wt/i15/dist/scripts/bench/billing-run-fixture');
(async()=>{
  const db = await createScratchDatabase(process.argv[2]);
  await seedRenewals(db.url, 300, 3000);
  const code = "require('/work/wt/i15/node_modules/reflect-metadata');require('/work/wt/i15/dist/host/cli/main.js').main(['automation','run','--task','create_invoice','--now','"+RUN_AT+"']).then(c=>process.exitCode=c,e=>{console.error(e.stack);process.exitCode=1})";
  const run = () => new Promise(r => { const c = spawn(process.execPath, ['-e', code], { env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' }, stdio: ['ignore','inherit','inherit'] }); c.on('exit', r); });
  const t = Date.now();
  console.log(await Promise.all([run(), run()]), Date.now() - t);
  await db.drop();
})();
