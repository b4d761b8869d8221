import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppDeps } from '../deps.js';
import type { Plan } from '../domain/plans.js';
import { ALL_SCOPES } from '../platform/http/scopes.js';
import { registerClient, type ClientCredentials } from '../platform/auth/credentials.js';
import { AuthRepo, secretMatches } from '../platform/auth/repo.js';
import { ContractRepo, type ContractSettings } from '../platform/contracts/repo.js';
import { seedDemo } from './demo.js';

/**
 * One demo contract per kind of shop, so every endpoint has a contract whose plan may call it:
 * retail (shipping, purchase orders, self-checkout), food (reservations, staff rank update) and
 * premium plus (staff update, which neither business plan may call; staff rank update).
 * Retail has the options a chain buys: CAT/CCT linkage and self-checkout / smart ID engine seats.
 */
export const DEMO_CONTRACTS: readonly { contractId: string; name: string; plan: Plan; settings?: Partial<ContractSettings> }[] = [
  {
    contractId: 'demo-retail',
    name: 'Demo Retail',
    plan: 'retail_business',
    settings: { catCctLinkage: true, maxSelfCheckoutTerminals: 2, maxSmartIdEngines: 1 },
  },
  { contractId: 'demo-food', name: 'Demo Food', plan: 'food_business' },
  { contractId: 'demo-premium', name: 'Demo Premium Plus', plan: 'premium_plus' },
];

export interface DemoContract extends ClientCredentials {
  contractId: string;
  plan: Plan;
}

/**
 * `npm start`: makes sure the demo contracts exist with their demo data and an API client.
 * The database keeps only secret hashes, so the demo client's secret is kept for the next
 * start in data/demo-credentials.json (mode 0600) — a convenience of the demo contracts only.
 */
export function ensureDemoContracts(deps: AppDeps, dataDir: string): DemoContract[] {
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  const auth = new AuthRepo(deps.db, deps.writer, deps.clock);
  const file = join(dataDir, 'demo-credentials.json');
  const saved = readSaved(file);

  const result = DEMO_CONTRACTS.map((demo) => {
    const contract = contracts.find(demo.contractId) ?? contracts.create({ ...demo, timeZone: 'Asia/Tokyo' });
    seedDemo(deps, contract.contractId, contract.plan);
    const previous = saved[demo.contractId];
    const client = previous && auth.findClient(previous.clientId);
    const stillValid = client && client.contractId === contract.contractId && secretMatches(previous.clientSecret, client.secretHash);
    const credentials = stillValid ? previous : registerClient(auth, contract.contractId, ALL_SCOPES);
    return { contractId: contract.contractId, plan: contract.plan, ...credentials };
  });

  const toSave = Object.fromEntries(result.map((r) => [r.contractId, { clientId: r.clientId, clientSecret: r.clientSecret }]));
  writeFileSync(file, `${JSON.stringify(toSave, null, 2)}\n`, { mode: 0o600 });
  return result;
}

function readSaved(file: string): Record<string, ClientCredentials> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ClientCredentials>;
  } catch {
    return {};
  }
}
