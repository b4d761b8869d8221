// The baseline: plain fastify() — no logger, no schemas, no auth, no hooks — on a fresh
// SQLite file with the same pragmas (openDatabase) and the real migrations, so the table
// and its indexes are ours. The scenario inserts the same data with plain SQL and adds the
// one route it loads. Usage (by run.mjs): node bare.mjs <scenario> <dir>
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { distImport, failChild, loadScenario, serveChild } from './child.mjs';

const CONTRACT_ID = 'bench';

try {
  const [name, dir] = process.argv.slice(2);
  if (!name || !dir) throw new Error('usage: bare.mjs <scenario> <dir>');
  const scenario = await loadScenario(name);

  // fastify is a dependency of the project; resolve it from the project root like the server does.
  const require = createRequire(new URL('../../../package.json', import.meta.url));
  const fastify = require('fastify');
  const { openDatabase } = await distImport('db/open.js');
  const { migrate } = await distImport('db/migrate.js');

  const db = openDatabase(join(dir, 'bare.sqlite'));
  migrate(db);
  const now = Date.now();
  db.prepare(
    `INSERT INTO contracts (contract_id, name, plan, time_zone, created_at, updated_at)
     VALUES (?, 'Bench contract', 'retail_business', 'Asia/Tokyo', ?, ?)`,
  ).run(CONTRACT_ID, now, now);

  const app = fastify();
  const request = await scenario.bare({ app, db, contractId: CONTRACT_ID, now });
  await app.listen({ host: '127.0.0.1', port: 0 });
  serveChild({
    port: app.server.address().port,
    request,
    close: async () => {
      await app.close();
      db.close();
    },
  });
} catch (error) {
  failChild(error);
}
