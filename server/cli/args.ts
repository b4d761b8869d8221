import { parseArgs } from 'node:util';
import { isPlan, PLANS, type Plan } from '../domain/plans.js';
import { isValidTimeZone } from '../domain/time.js';
import { parseRights, RIGHTS, type Right } from '../platform/http/rights.js';
import { ALL_SCOPES, parseScopes, type Scope } from '../platform/http/scopes.js';
import { passwordProblem } from '../platform/auth/password.js';
import type { Role } from '../deps.js';
import type { ContractSettings } from '../platform/contracts/repo.js';
import { isHttpUrl, isWebhookEvent, WEBHOOK_EVENTS, type WebhookEventName } from '../events/webhook-events.js';
import { LIMIT_OPTIONS, LIMIT_USAGE, limitSettings, type LimitSettings } from './limit-options.js';

/** A bad command line: main prints the one-line reason and exits 2. */
export class UsageError extends Error {}

export const USAGE = `usage: pos-backoffice <command> [options]   (every command takes --data-dir DIR, env POS_DATA_DIR, default ./data)
  serve [--role store|central] [--host H] [--port P] [--node N] [--demo] [--ui-lan] [--public-url URL]
               [--webhook-allow LIST] [--rate-reads N] [--rate-writes N] [--rate-sync N] [--rate-limit-shared]
               (--ui-lan, env POS_UI_LAN=1: serve the back-office UI /ui to the LAN too, not only this PC;
                --public-url, env POS_PUBLIC_URL: the base of CSV export download URLs, default where it listens)
${LIMIT_USAGE}
  contract create --id ID --plan PLAN [--name NAME] [--time-zone ZONE]
  contract set-plan --id ID --plan PLAN
  contract set --id ID [--member-head-office-linkage on|off] [--cat-cct-linkage on|off]
               [--max-sales-terminals N] [--max-self-checkout-terminals N] [--max-smart-id-engines N]
               [--tax-rounding half-up|down|up] [--discount-rounding half-up|down|up]
               [--inventory-approval on|off] [--shipped-shipment-edit allowed|forbidden]
               [--order-split-unit none|category-group|supplier]
  client create --contract ID [--scopes "pos.products:read ..."]
  seed --contract ID
  staff-password set --contract ID --staff STAFF_ID [--password P] [--rights LIST]
               (the staff member logs in with the staff code as username; without --password
                only the rights change; without --rights they are kept)
  webhook add --contract ID --url URL --events LIST   (prints the signing secret whsec_...)
  webhook list --contract ID
  webhook remove --contract ID --id SUBSCRIPTION_ID
  webhook deliveries --contract ID [--status pending|delivered|dead]
  webhook replay --contract ID --id DELIVERY_ID
  node add --contract ID --node N [--name NAME]     (central: prints the node's secret once)
  node list [--contract ID]
  node revoke --contract ID --node N
  link --central URL --contract ID --node N --secret S [--insecure] [--offline]
               (store; checked with central first, the contract taken from central where missing;
               plain http only to loopback or private LAN addresses unless --insecure;
               --offline saves it unchecked, the first push checks it)
  unlink --contract ID
  sync status [--contract ID]
  sync dead-letters --contract ID [--retry DEAD_LETTER_ID | --discard DEAD_LETTER_ID]
  backup [--to DIR] [--kind manual|daily]   (a consistent copy, also while the server writes; DIR
               default <data-dir>/backups; prints {"file",...}; --kind only names the file)
  restore --from FILE   (refused while a server uses the data dir; checks FILE with integrity_check,
               keeps the current database as pos-before-restore-<time>.sqlite, swaps FILE in)
EVENTS (comma separated): ${WEBHOOK_EVENTS.join(',')}
PLAN: ${PLANS.join(' ')}
LIST: comma separated rights, "" for none: ${RIGHTS.join(',')}`;

export type Command =
  | ({ name: 'serve'; dataDir: string; role: Role; host: string; port: number; node?: number; demo: boolean; uiLan: boolean; publicUrl?: string } & LimitSettings)
  | { name: 'contract create'; dataDir: string; id: string; plan: Plan; contractName?: string; timeZone: string }
  | { name: 'contract set-plan'; dataDir: string; id: string; plan: Plan }
  | { name: 'contract set'; dataDir: string; id: string; settings: Partial<ContractSettings> }
  | { name: 'client create'; dataDir: string; contract: string; scopes?: Scope[] }
  | { name: 'seed'; dataDir: string; contract: string }
  | { name: 'staff-password set'; dataDir: string; contract: string; staffId: string; password?: string; rights?: Right[] }
  | { name: 'webhook add'; dataDir: string; contract: string; url: string; events: WebhookEventName[] }
  | { name: 'webhook list'; dataDir: string; contract: string }
  | { name: 'webhook remove'; dataDir: string; contract: string; id: string }
  | { name: 'webhook deliveries'; dataDir: string; contract: string; status?: 'pending' | 'delivered' | 'dead' }
  | { name: 'webhook replay'; dataDir: string; contract: string; id: string }
  | { name: 'node add'; dataDir: string; contract: string; node: number; nodeName?: string }
  | { name: 'node list'; dataDir: string; contract?: string }
  | { name: 'node revoke'; dataDir: string; contract: string; node: number }
  | { name: 'link'; dataDir: string; central: string; contract: string; node: number; secret: string; insecure: boolean; offline: boolean }
  | { name: 'unlink'; dataDir: string; contract: string }
  | { name: 'sync status'; dataDir: string; contract?: string }
  | { name: 'sync dead-letters'; dataDir: string; contract: string; retry?: number; discard?: number }
  | { name: 'backup'; dataDir: string; to?: string; kind: 'manual' | 'daily' }
  | { name: 'restore'; dataDir: string; from: string }
  | { name: 'help' };

const OPTIONS = {
  'data-dir': { type: 'string' },
  role: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  node: { type: 'string' },
  demo: { type: 'boolean' },
  'ui-lan': { type: 'boolean' },
  'public-url': { type: 'string' },
  ...LIMIT_OPTIONS,
  id: { type: 'string' },
  plan: { type: 'string' },
  name: { type: 'string' },
  'time-zone': { type: 'string' },
  contract: { type: 'string' },
  scopes: { type: 'string' },
  'member-head-office-linkage': { type: 'string' },
  'cat-cct-linkage': { type: 'string' },
  'tax-rounding': { type: 'string' },
  'inventory-approval': { type: 'string' },
  'shipped-shipment-edit': { type: 'string' },
  'order-split-unit': { type: 'string' },
  'discount-rounding': { type: 'string' },
  'max-sales-terminals': { type: 'string' },
  'max-self-checkout-terminals': { type: 'string' },
  'max-smart-id-engines': { type: 'string' },
  staff: { type: 'string' },
  password: { type: 'string' },
  rights: { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  status: { type: 'string' },
  central: { type: 'string' },
  secret: { type: 'string' },
  insecure: { type: 'boolean' },
  offline: { type: 'boolean' },
  retry: { type: 'string' },
  discard: { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  kind: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Which options each command accepts; anything else is a usage error. */
const ALLOWED: Record<string, string[]> = {
  serve: ['role', 'host', 'port', 'node', 'demo', 'ui-lan', 'public-url', ...Object.keys(LIMIT_OPTIONS)],
  'contract create': ['id', 'plan', 'name', 'time-zone'],
  'contract set-plan': ['id', 'plan'],
  'contract set': ['id', 'member-head-office-linkage', 'cat-cct-linkage', 'max-sales-terminals', 'max-self-checkout-terminals', 'max-smart-id-engines', 'tax-rounding', 'discount-rounding', 'inventory-approval', 'shipped-shipment-edit', 'order-split-unit'],
  'client create': ['contract', 'scopes'],
  seed: ['contract'],
  'staff-password set': ['contract', 'staff', 'password', 'rights'],
  'webhook add': ['contract', 'url', 'events'],
  'webhook list': ['contract'],
  'webhook remove': ['contract', 'id'],
  'webhook deliveries': ['contract', 'status'],
  'webhook replay': ['contract', 'id'],
  'node add': ['contract', 'node', 'name'],
  'node list': ['contract'],
  'node revoke': ['contract', 'node'],
  link: ['central', 'contract', 'node', 'secret', 'insecure', 'offline'],
  unlink: ['contract'],
  'sync status': ['contract'],
  'sync dead-letters': ['contract', 'retry', 'discard'],
  backup: ['to', 'kind'],
  restore: ['from'],
};

/** Commands named by two words. */
const TWO_WORD = ['contract', 'client', 'staff-password', 'webhook', 'node', 'sync'];

export const CONTRACT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Command {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const { values: v, positionals } = parsed;
  if (v.help || positionals.length === 0 || positionals[0] === 'help') return { name: 'help' };

  const name = TWO_WORD.includes(positionals[0]!) ? positionals.slice(0, 2).join(' ') : positionals[0]!;
  const allowed = ALLOWED[name];
  if (!allowed) throw new UsageError(`unknown command "${positionals.join(' ')}"; run pos-backoffice --help`);
  const extraPositionals = positionals.slice(name.split(' ').length);
  if (extraPositionals.length) throw new UsageError(`unexpected argument "${extraPositionals[0]}"`);
  for (const key of Object.keys(v)) {
    if (key !== 'data-dir' && !allowed.includes(key)) throw new UsageError(`${name} does not take --${key}`);
  }
  const dataDir = v['data-dir'] ?? env.POS_DATA_DIR ?? './data';

  switch (name) {
    case 'serve': {
      const role = v.role ?? 'store';
      if (role !== 'store' && role !== 'central') throw new UsageError(`--role must be store or central, got "${role}"`);
      return {
        name,
        dataDir,
        role,
        host: v.host ?? env.POS_HOST ?? '127.0.0.1',
        port: intOption('--port', v.port ?? env.POS_PORT ?? '8080', 0, 65535),
        ...(v.node ?? env.POS_NODE ? { node: intOption('--node', (v.node ?? env.POS_NODE)!, 0, 999) } : {}),
        demo: v.demo ?? false,
        uiLan: v['ui-lan'] ?? (env.POS_UI_LAN === '1' || env.POS_UI_LAN === 'true'),
        ...publicUrlOption(v['public-url'] ?? env.POS_PUBLIC_URL),
        ...limitSettings(v, env, (message) => new UsageError(message)),
      };
    }
    case 'contract create': {
      const timeZone = v['time-zone'] ?? 'Asia/Tokyo';
      if (!isValidTimeZone(timeZone)) throw new UsageError(`--time-zone "${timeZone}" is not a known IANA time zone`);
      return { name, dataDir, id: contractId(v.id), plan: plan(v.plan), timeZone, ...(v.name ? { contractName: v.name } : {}) };
    }
    case 'contract set-plan':
      return { name, dataDir, id: contractId(v.id), plan: plan(v.plan) };
    case 'contract set': {
      const settings: Partial<ContractSettings> = {};
      const flag = v['member-head-office-linkage'];
      if (flag !== undefined) settings.memberHeadOfficeLinkage = onOff('--member-head-office-linkage', flag);
      const cat = v['cat-cct-linkage'];
      if (cat !== undefined) settings.catCctLinkage = onOff('--cat-cct-linkage', cat);
      const caps = [
        ['max-sales-terminals', 'maxSalesTerminals'],
        ['max-self-checkout-terminals', 'maxSelfCheckoutTerminals'],
        ['max-smart-id-engines', 'maxSmartIdEngines'],
      ] as const;
      for (const [option, key] of caps) {
        const value = v[option];
        if (value !== undefined) settings[key] = intOption(`--${option}`, value, 0, 9999);
      }
      const tax = v['tax-rounding'];
      if (tax !== undefined) settings.taxRounding = roundingOption('--tax-rounding', tax);
      const discount = v['discount-rounding'];
      if (discount !== undefined) settings.discountRoundingDivision = roundingOption('--discount-rounding', discount);
      Object.assign(settings, inventoryOptions(v['inventory-approval'], v['shipped-shipment-edit'], v['order-split-unit']));
      if (Object.keys(settings).length === 0) throw new UsageError('contract set needs at least one setting to change');
      return { name, dataDir, id: contractId(v.id), settings };
    }
    case 'client create': {
      if (v.scopes === undefined) return { name, dataDir, contract: contractId(v.contract, '--contract') };
      // The operator grants what we serve: a name we do not serve is a typo here, not a narrower grant.
      const { scopes, ignored, foreign } = parseScopes(v.scopes);
      const unknown = [...ignored, ...foreign];
      if (unknown.length) throw new UsageError(`--scopes: unknown scope ${unknown.join(", ")}`);
      if (!scopes.length) throw new UsageError('--scopes lists no scope');
      return { name, dataDir, contract: contractId(v.contract, '--contract'), scopes };
    }
    case 'staff-password set':
      return staffPassword(dataDir, v);
    case 'webhook add':
    case 'webhook list':
    case 'webhook remove':
    case 'webhook deliveries':
    case 'webhook replay':
      return webhookCommand(name, dataDir, v);
    case 'node add':
      return { name, dataDir, contract: contractId(v.contract, '--contract'), node: storeNode(v.node), ...(v.name ? { nodeName: v.name } : {}) };
    case 'node list':
      return { name, dataDir, ...(v.contract !== undefined ? { contract: contractId(v.contract, '--contract') } : {}) };
    case 'node revoke':
      return { name, dataDir, contract: contractId(v.contract, '--contract'), node: storeNode(v.node) };
    case 'link': {
      if (!v.central) throw new UsageError('--central is required');
      if (!v.secret) throw new UsageError('--secret is required');
      return { name, dataDir, central: v.central, contract: contractId(v.contract, '--contract'), node: storeNode(v.node), secret: v.secret, insecure: v.insecure ?? false, offline: v.offline ?? false };
    }
    case 'unlink':
      return { name, dataDir, contract: contractId(v.contract, '--contract') };
    case 'sync status':
      return { name, dataDir, ...(v.contract !== undefined ? { contract: contractId(v.contract, '--contract') } : {}) };
    case 'sync dead-letters': {
      if (v.retry !== undefined && v.discard !== undefined) throw new UsageError('give --retry or --discard, not both');
      return {
        name,
        dataDir,
        contract: contractId(v.contract, '--contract'),
        ...(v.retry !== undefined ? { retry: intOption('--retry', v.retry, 1, Number.MAX_SAFE_INTEGER) } : {}),
        ...(v.discard !== undefined ? { discard: intOption('--discard', v.discard, 1, Number.MAX_SAFE_INTEGER) } : {}),
      };
    }
    case 'backup': {
      const kind = v.kind ?? 'manual';
      if (kind !== 'manual' && kind !== 'daily') throw new UsageError(`--kind must be manual or daily, got "${kind}"`);
      if (v.to === '') throw new UsageError('--to must name a folder');
      return { name, dataDir, kind, ...(v.to !== undefined ? { to: v.to } : {}) };
    }
    case 'restore':
      if (!v.from) throw new UsageError('--from is required: the backup file to restore');
      return { name, dataDir, from: v.from };
    default:
      return { name: 'seed', dataDir, contract: contractId(v.contract, '--contract') };
  }
}

function staffPassword(dataDir: string, v: { contract?: string; staff?: string; password?: string; rights?: string }): Command {
  const contract = contractId(v.contract, '--contract');
  if (!v.staff) throw new UsageError('--staff is required');
  if (!/^\d{1,9}$/.test(v.staff)) throw new UsageError(`--staff must be a staff id of 1 to 9 digits, got "${v.staff}"`);
  if (v.password === undefined && v.rights === undefined) throw new UsageError('staff-password set needs --password, --rights or both');
  if (v.password !== undefined) {
    const problem = passwordProblem(v.password);
    if (problem) throw new UsageError(`--password ${problem}`);
  }
  let rights: Right[] | undefined;
  if (v.rights !== undefined) {
    const parsed = parseRights(v.rights);
    if (parsed.unknown.length) throw new UsageError(`--rights: unknown right ${parsed.unknown.join(', ')}; known: ${RIGHTS.join(', ')}`);
    rights = parsed.rights;
  }
  return {
    name: 'staff-password set',
    dataDir,
    contract,
    staffId: String(Number(v.staff)),
    ...(v.password !== undefined ? { password: v.password } : {}),
    ...(rights ? { rights } : {}),
  };
}

function webhookCommand(name: string, dataDir: string, v: { contract?: string; url?: string; events?: string; id?: string; status?: string }): Command {
  const contract = contractId(v.contract, '--contract');
  const needId = (what: string) => {
    if (!v.id || !/^\d{1,12}$/.test(v.id)) throw new UsageError(`--id must be the ${what} id (digits), got "${v.id ?? ''}"`);
    return v.id;
  };
  switch (name) {
    case 'webhook add': {
      if (!v.url) throw new UsageError('--url is required');
      if (!isHttpUrl(v.url)) throw new UsageError(`--url must be an http:// or https:// URL, got "${v.url}"`);
      const names = [...new Set((v.events ?? '').split(/[\s,]+/).filter(Boolean))];
      if (!names.length) throw new UsageError(`--events is required: ${WEBHOOK_EVENTS.join(', ')}`);
      const unknown = names.filter((n) => !isWebhookEvent(n));
      if (unknown.length) throw new UsageError(`--events: unknown event ${unknown.join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`);
      return { name, dataDir, contract, url: v.url, events: names as WebhookEventName[] };
    }
    case 'webhook list':
      return { name, dataDir, contract };
    case 'webhook remove':
      return { name, dataDir, contract, id: needId('subscription') };
    case 'webhook deliveries': {
      const status = v.status;
      if (status !== undefined && status !== 'pending' && status !== 'delivered' && status !== 'dead') {
        throw new UsageError(`--status must be pending, delivered or dead, got "${status}"`);
      }
      return { name, dataDir, contract, ...(status ? { status } : {}) };
    }
    default:
      return { name: 'webhook replay', dataDir, contract, id: needId('delivery') };
  }
}

/** A store's node number (DESIGN §4: central is 0, stores 1..999). */
function storeNode(value: string | undefined): number {
  if (value === undefined) throw new UsageError('--node is required');
  return intOption('--node', value, 1, 999);
}

function contractId(value: string | undefined, flag = '--id'): string {
  if (!value) throw new UsageError(`${flag} is required`);
  if (!CONTRACT_ID.test(value)) throw new UsageError(`${flag} "${value}" must be 1-64 letters, digits, _ or -, starting with a letter or digit`);
  return value;
}

function plan(value: string | undefined): Plan {
  if (!value) throw new UsageError('--plan is required');
  if (!isPlan(value)) throw new UsageError(`--plan must be one of ${PLANS.join(' ')}, got "${value}"`);
  return value;
}

function onOff(flag: string, value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new UsageError(`${flag} must be on or off, got "${value}"`);
  return value === 'on';
}

function intOption(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || +value < min || +value > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`);
  return Number(value);
}

const ROUNDING_OPTIONS = { 'half-up': '0', down: '1', up: '2' } as const;

function roundingOption(option: string, value: string): '0' | '1' | '2' {
  const code = ROUNDING_OPTIONS[value as keyof typeof ROUNDING_OPTIONS];
  if (!code) throw new UsageError(`${option} must be half-up, down or up, got "${value}"`);
  return code;
}

/** --public-url: an http(s) base URL (no query); the download paths are appended to it. */
function publicUrlOption(value: string | undefined): { publicUrl?: string } {
  if (value === undefined || value === '') return {};
  if (!isHttpUrl(value) || /[?#]/.test(value)) throw new UsageError(`--public-url must be an http:// or https:// base URL, got "${value}"`);
  return { publicUrl: value.replace(/\/+$/, '') };
}

/** The contract's inventory settings: approval function, editing of shipped shipments, order split unit. */
function inventoryOptions(approval?: string, shippedEdit?: string, splitUnit?: string): Partial<ContractSettings> {
  const settings: Partial<ContractSettings> = {};
  if (approval !== undefined) settings.inventoryApproval = onOff('--inventory-approval', approval);
  if (shippedEdit !== undefined) {
    if (shippedEdit !== 'allowed' && shippedEdit !== 'forbidden') throw new UsageError(`--shipped-shipment-edit must be allowed or forbidden, got "${shippedEdit}"`);
    settings.shippedShipmentEditForbidden = shippedEdit === 'forbidden';
  }
  if (splitUnit !== undefined) {
    const code = new Map([['none', '0'], ['category-group', '1'], ['supplier', '2']] as const).get(splitUnit as 'none');
    if (!code) throw new UsageError(`--order-split-unit must be none, category-group or supplier, got "${splitUnit}"`);
    settings.orderSplitUnit = code;
  }
  return settings;
}
