// Our server as the CLI runs it (compiled, from dist/): openDeps + buildApp on a fresh
// SQLite file, a contract and an API client, and a real token fetched over HTTP from the
// token endpoint. The scenario then creates its data through the API and names the request
// to load. Usage (by run.mjs): node ours.mjs <scenario> <dir>
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { distImport, failChild, loadScenario, serveChild } from './child.mjs';

const CONTRACT_ID = 'bench';

try {
  const [name, dir] = process.argv.slice(2);
  if (!name || !dir) throw new Error('usage: ours.mjs <scenario> <dir>');
  const scenario = await loadScenario(name);

  const { openDeps } = await distImport('deps.js');
  const { buildApp } = await distImport('app.js');
  // Served as main.js serves it: with the sync module (outbox rows in every write).
  const { syncModule } = await distImport('../sync/module.js');
  const { ContractRepo } = await distImport('platform/contracts/repo.js');
  const { AuthRepo } = await distImport('platform/auth/repo.js');
  const { ALL_SCOPES } = await distImport('platform/http/scopes.js');

  const deps = openDeps({ file: join(dir, 'ours.sqlite'), role: 'store' });
  new ContractRepo(deps.db, deps.writer, deps.clock).create({
    contractId: CONTRACT_ID,
    name: 'Bench contract',
    plan: 'retail_business',
    timeZone: 'Asia/Tokyo',
  });
  const clientId = randomBytes(8).toString('hex');
  const clientSecret = randomBytes(16).toString('hex');
  new AuthRepo(deps.db, deps.writer, deps.clock).createClient({ clientId, contractId: CONTRACT_ID, secret: clientSecret, scopes: ALL_SCOPES });

  const app = await buildApp(deps, [syncModule]);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address();
  const origin = `http://127.0.0.1:${port}`;

  const tokenRes = await fetch(`${origin}/app/${CONTRACT_ID}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (tokenRes.status !== 200) throw new Error(`token request failed: ${tokenRes.status} ${await tokenRes.text()}`);
  const { access_token: token } = await tokenRes.json();
  const authHeaders = { authorization: `Bearer ${token}` };

  /** Calls /{contract}/pos{path} with the token; throws unless 2xx; returns the JSON body. */
  const api = async (method, path, body) => {
    const res = await fetch(`${origin}/${CONTRACT_ID}/pos${path}`, {
      method,
      headers: { ...authHeaders, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  const ctx = { app, deps, contractId: CONTRACT_ID, token, authHeaders, api, report: undefined };
  const request = await scenario.ours(ctx);
  serveChild({
    port,
    request,
    // A scenario may set ctx.report: facts about the server at the end of each measurement.
    report: ctx.report,
    close: async () => {
      await app.close();
      deps.db.close();
    },
  });
} catch (error) {
  failChild(error);
}
