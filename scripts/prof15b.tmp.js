require('/work/wt/i15/node_modules/reflect-metadata');
const pg = require('/work/wt/i15/node_modules/pg');
const { createScratchDatabase } = require('/work/wt/i15/dist/scripts/support/scratch-database');
const { seedRenewals, RUN_AT } = require('/work/wt/i15/dist/scripts/bench/billing-run-fixture');
const { Installation } = require('/work/wt/i15/dist/core/installation');
const { runBilling } = require('/work/wt/i15/dist/core/automation/billing-run');
(async()=>{
  const db = await createScratchDatabase('postgres://postgres@127.0.0.1:5432/test');
  await seedRenewals(db.url, 20, 200);
  const inst = await Installation.open({databaseUrl: db.url});
  const counts = new Map();
  const oq = pg.Client.prototype.query;
  pg.Client.prototype.query = function(q, ...rest){ const t = typeof q === 'string' ? q : q.text; const k=String(t).slice(0,90); counts.set(k,(counts.get(k)||0)+1); return oq.call(this,q,...rest); };
  await runBilling(inst,{now:RUN_AT,tasks:['create_invoice']});
  const total=[...counts.values()].reduce((a,b)=>a+b,0);
  console.log('total', total, 'per unit', total/20);
  console.log([...counts.entries()].sort((a,b)=>b[1]-a[1]).slice(0,30).map(([k,v])=>v+'  '+k).join('\n'));
  await inst.close(); await db.drop();
})();
