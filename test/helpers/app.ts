import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from './modules.js';
import { FixedClock } from '../../server/clock.js';
import { openDeps, type AppDeps, type Role } from '../../server/deps.js';
import type { Plan } from '../../server/domain/plans.js';
import { ALL_SCOPES, type Scope } from '../../server/platform/http/scopes.js';
import { testDatabase } from './engine.js';
import { AuthRepo } from '../../server/platform/auth/repo.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';

export const T0 = '2026-11-22T01:00:00Z';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  clock: FixedClock;
  contractId: string;
  /** A token with every scope for `contractId`. */
  token: string;
  /** Creates a client on `contractId` (or another contract) and returns a token for it. */
  tokenFor(options?: { contractId?: string; scopes?: readonly Scope[] }): Promise<string>;
  /** Adds a contract on the same database. */
  addContract(contractId: string, plan: Plan): void;
  createClient(contractId: string, scopes?: readonly Scope[]): { clientId: string; clientSecret: string };
  /** `app.inject` against /{contractId}/pos{path} with the bearer token. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A fresh database with the real migrations (SQLite, or PostgreSQL when the run's engine is:
 * helpers/engine.ts), a contract, a client and a token.
 */
export async function makeTestApp(options: { plan?: Plan; contractId?: string; logger?: AppDeps['logger']; role?: Role } = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-test-'));
  const clock = new FixedClock(new Date(T0));
  const database = await testDatabase();
  const deps = openDeps({ file: join(dir, 'pos.sqlite'), ...(database.postgresUrl ? { postgresUrl: database.postgresUrl } : {}), clock, logger: options.logger ?? testLogger(), checkResponses: true, ...(options.role ? { role: options.role } : {}) });
  const contracts = new ContractRepo(deps.db, deps.writer, clock);
  const auth = new AuthRepo(deps.db, deps.writer, clock);
  const contractId = options.contractId ?? 'test-contract';

  const addContract = (id: string, plan: Plan) => {
    contracts.create({ contractId: id, name: `Contract ${id}`, plan, timeZone: 'Asia/Tokyo' });
  };
  const createClient = (cid: string, scopes: readonly Scope[] = ALL_SCOPES) => {
    const clientId = randomBytes(8).toString('hex');
    const clientSecret = randomBytes(16).toString('hex');
    auth.createClient({ clientId, contractId: cid, secret: clientSecret, scopes });
    return { clientId, clientSecret };
  };
  addContract(contractId, options.plan ?? 'retail_business');
  const app = await buildApp(deps);

  const tokenFor = async (o: { contractId?: string; scopes?: readonly Scope[] } = {}) => {
    const cid = o.contractId ?? contractId;
    const { clientId, clientSecret } = createClient(cid, o.scopes ?? ALL_SCOPES);
    const res = await app.inject({
      method: 'POST',
      url: `/app/${cid}/token`,
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    if (res.statusCode !== 200) throw new Error(`token request failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { access_token: string }).access_token;
  };
  const token = await tokenFor();

  return {
    app,
    deps,
    clock,
    contractId,
    token,
    tokenFor,
    addContract,
    createClient,
    api: (method, path, body, tok = token) =>
      app.inject({
        method: method as 'GET',
        url: `/${contractId}/pos${path}`,
        headers: { authorization: `Bearer ${tok}` },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
    async close() {
      await app.close();
      deps.db.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts a problem+json body and returns it. */
export function problem(
  res: LightMyRequestResponse,
  status: number,
): { type: string; title: string; detail: string; status?: number; [extra: string]: unknown } {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) throw new Error(`expected problem+json, got ${type}: ${res.body}`);
  return res.json();
}

type Call = (method: string, path: string, body?: unknown) => Promise<LightMyRequestResponse>;

/** `call` (t.api, a fixture's api, the waiter API) answering only a 200's JSON: anything else throws with the status and body. */
export const okOf =
  (call: Call) =>
  async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await call(method, path, body);
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

/** POS_TEST_LOG=error (or another level) shows the apps' logs, e.g. a 500's cause; silent otherwise. */
export const testLogger = (): AppDeps['logger'] => (process.env.POS_TEST_LOG ? { level: process.env.POS_TEST_LOG } : false);
