require('/work/wt/i15/node_modules/reflect-metadata');
const path=require('path');
const { createScratchDatabase } = require('/work/wt/i15/dist/scripts/support/scratch-database');
const { seedRenewals, RUN_AT } = require('/work/wt/i15/dist/scripts/bench/billing-run-fixture');
const { Installation } = require('/work/wt/i15/dist/core/installation');
const { runBilling } = require('/work/wt/i15/dist/core/automation/billing-run');
(async()=>{
  const db = await createScratchDatabase(process.argv[2]);
  await seedRenewals(db.url, Number(process.env.N||200), Number(process.env.N||200)*10);
  const inst = await Installation.open({databaseUrl: db.url});
  const t=Date.now();
  const r = await runBilling(inst,{now:RUN_AT,tasks:['create_invoice']});
  console.log('run', Date.now()-t, 'ms', r[0].processed);
  await inst.close(); await db.drop();
})();
