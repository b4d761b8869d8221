import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../../helpers/app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

describe('token endpoint POST /app/{contract_id}/token', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const token = (contract: string, headers: Record<string, string>, payload: string) =>
    t.app.inject({ method: 'POST', url: `/app/${contract}/token`, headers: { 'content-type': FORM, ...headers }, payload });

  it('issues a bearer token for client credentials with every granted scope', async () => {
    const c = t.createClient(t.contractId, ['pos.products:read', 'pos.stores:read']);
    const res = await token(t.contractId, { authorization: basic(c.clientId, c.clientSecret) }, 'grant_type=client_credentials');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'pos.products:read pos.stores:read' });
    expect(body.access_token).toMatch(/^[\w-]{43}$/);
  });

  it('narrows to the requested scopes and refuses unknown or ungranted ones', async () => {
    const c = t.createClient(t.contractId, ['pos.products:read', 'pos.stores:read']);
    const auth = { authorization: basic(c.clientId, c.clientSecret) };
    const ok = await token(t.contractId, auth, 'grant_type=client_credentials&scope=pos.stores:read');
    expect(ok.json().scope).toBe('pos.stores:read');
    // DESIGN §3: names of the pos./waiter./order-shipment. families narrow the grant; only a
    // name outside them is invalid_scope.
    const narrowed = await token(t.contractId, auth, 'grant_type=client_credentials&scope=pos.foo:read pos.stores:write pos.stores:read');
    expect(narrowed.statusCode).toBe(200);
    expect(narrowed.json().scope).toBe('pos.stores:read');
    const nothing = await token(t.contractId, auth, 'grant_type=client_credentials&scope=pos.stores:write');
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json().scope).toBe('');
    const foreign = problem(await token(t.contractId, auth, 'grant_type=client_credentials&scope=pos.stores:read openid admin:all'), 400);
    expect(foreign).toMatchObject({ error: 'invalid_scope', detail: '[scope] unknown scope openid, admin:all' });
  });

  it('accepts client credentials in the form body too', async () => {
    const c = t.createClient(t.contractId);
    const res = await token(t.contractId, {}, `grant_type=client_credentials&client_id=${c.clientId}&client_secret=${c.clientSecret}`);
    expect(res.statusCode).toBe(200);
  });

  it('refuses bad client authentication with 401 invalid_client', async () => {
    const c = t.createClient(t.contractId);
    t.addContract('other', 'premium');
    for (const [contract, headers] of [
      [t.contractId, { authorization: basic(c.clientId, 'wrong') }],
      [t.contractId, { authorization: basic('nobody', c.clientSecret) }],
      ['other', { authorization: basic(c.clientId, c.clientSecret) }],
      ['missing-contract', { authorization: basic(c.clientId, c.clientSecret) }],
      [t.contractId, {}],
    ] as const) {
      const res = await token(contract, headers, 'grant_type=client_credentials');
      const body = problem(res, 401);
      expect(body.error).toBe('invalid_client');
      expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    }
  });

  it('requires a supported grant type', async () => {
    const c = t.createClient(t.contractId);
    const auth = { authorization: basic(c.clientId, c.clientSecret) };
    expect(problem(await token(t.contractId, auth, 'scope=pos.stores:read'), 400)).toMatchObject({ error: 'invalid_request', detail: '[grant_type] is required' });
    expect(problem(await token(t.contractId, auth, 'grant_type=authorization_code'), 400)).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('stores client secrets and tokens only as hashes', async () => {
    const c = t.createClient(t.contractId);
    const res = await token(t.contractId, { authorization: basic(c.clientId, c.clientSecret) }, 'grant_type=client_credentials');
    const accessToken = res.json().access_token as string;
    const dump = JSON.stringify([
      t.deps.db.prepare('SELECT * FROM api_clients').all(),
      t.deps.db.prepare('SELECT * FROM access_tokens').all(),
    ]);
    expect(dump).not.toContain(c.clientSecret);
    expect(dump).not.toContain(accessToken);
  });
});

describe('bearer authentication on the API', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const expect401 = async (headers: Record<string, string>, contract = t.contractId) => {
    const res = await t.app.inject({ method: 'GET', url: `/${contract}/pos/stores`, headers });
    const body = problem(res, 401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(body).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
    return body.detail;
  };

  it('401 for a missing, malformed or unknown token', async () => {
    expect(await expect401({})).toMatch(/bearer token is required/);
    expect(await expect401({ authorization: `Basic abc` })).toMatch(/bearer token is required/);
    expect(await expect401({ authorization: 'Bearer not-a-real-token' })).toBe('the access token is not valid');
  });

  it('401 once the token has expired (3600 s)', async () => {
    t.clock.advance(3599_000);
    expect((await t.api('GET', '/stores')).statusCode).toBe(200);
    t.clock.advance(1000);
    expect(await expect401({ authorization: `Bearer ${t.token}` })).toBe('the access token has expired');
  });

  it('401 for a token of another contract', async () => {
    t.addContract('other', 'premium');
    const otherToken = await t.tokenFor({ contractId: 'other' });
    expect(await expect401({ authorization: `Bearer ${otherToken}` })).toBe('the access token was issued for another contract');
    expect(await expect401({ authorization: `Bearer ${t.token}` }, 'other')).toBe('the access token was issued for another contract');
  });

  it('403 naming the scope the token lacks', async () => {
    const readOnly = await t.tokenFor({ scopes: ['pos.stores:read'] });
    expect((await t.api('GET', '/stores', undefined, readOnly)).statusCode).toBe(200);
    const body = problem(await t.api('POST', '/stores', { storeName: 'X' }, readOnly), 403);
    expect(body).toEqual({ type: 'about:blank', title: 'Forbidden', status: 403, detail: '[scope] the token lacks the scope pos.stores:write' });
  });

  it('answers the platform client URL layout unchanged: {host}/{contract_id}/pos{path}', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/${t.contractId}/pos/stores`, headers: { authorization: `Bearer ${t.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});
