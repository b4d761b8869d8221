import { parseArgs } from 'node:util';
import { isPlan, PLANS, type Plan } from '../domain/plans.js';
import { isValidTimeZone } from '../domain/time.js';
import { parseRights, RIGHTS, type Right } from '../platform/http/rights.js';
import { ALL_SCOPES, parseScopes, type Scope } from '../platform/http/scopes.js';
import { passwordProblem } from '../platform/auth/password.js';
import type { Role } from '../deps.js';
import type { ContractSettings } from '../platform/contracts/repo.js';
import { isHttpUrl } from '../events/webhook-events.js';
import type { CliCommand, ServerModule } from '../modules.js';
import { UsageError } from './errors.js';
import { DatabaseUrlError, parseDatabaseUrl } from '../db/pg/connect.js';
import { LIMIT_OPTIONS, LIMIT_USAGE, limitSettings, type LimitSettings } from './limit-options.js';
import { contractOption as contractId, intOption, type OptionTable, type ValuesOf } from './options.js';

export { UsageError } from './errors.js';
export { CONTRACT_ID } from './options.js';

/** --help: the server's commands, the modules' commands (sync's: webhooks, nodes, link) between. */
export function usage(modules: readonly ServerModule[]): string {
  const plugged = modules.flatMap((m) => m.cli?.commands ?? []).map((c) => `  ${c.usage}
`);
  const notes = modules.flatMap((m) => m.cli?.notes ?? []).map((line) => `${line}
`);
  return `${RECORD_USAGE}
${plugged.join('')}${FILE_USAGE}
${notes.join('')}${LEGEND}`;
}

const RECORD_USAGE = `usage: pos-backoffice <command> [options]   (every command takes --data-dir DIR, env POS_DATA_DIR, default ./data,
               and, for head office on PostgreSQL, --database postgres://user@host:port/db, env POS_DATABASE_URL)
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
                only the rights change; without --rights they are kept)`;

const FILE_USAGE = `  backup [--to DIR] [--kind manual|daily]   (a consistent copy, also while the server writes; DIR
               default <data-dir>/backups; prints {"file",...}; --kind only names the file)
  restore --from FILE   (refused while a server uses the data dir; checks FILE with integrity_check,
               keeps the current database as pos-before-restore-<time>.sqlite, swaps FILE in)`;

const LEGEND = `PLAN: ${PLANS.join(' ')}
LIST: comma separated rights, "" for none: ${RIGHTS.join(',')}`;

/**
 * `--database` / POS_DATABASE_URL: head office's PostgreSQL database, for `serve --role central`
 * and every command on that instance; absent, the data dir's SQLite file.
 */
interface DatabaseChoice {
  database?: string;
}

/** The server's own commands as parsed. */
export type ServerCommand = DatabaseChoice & (
  | ({ name: 'serve'; dataDir: string; role: Role; host: string; port: number; node?: number; demo: boolean; uiLan: boolean; publicUrl?: string } & LimitSettings)
  | { name: 'contract create'; dataDir: string; id: string; plan: Plan; contractName?: string; timeZone: string }
  | { name: 'contract set-plan'; dataDir: string; id: string; plan: Plan }
  | { name: 'contract set'; dataDir: string; id: string; settings: Partial<ContractSettings> }
  | { name: 'client create'; dataDir: string; contract: string; scopes?: Scope[] }
  | { name: 'seed'; dataDir: string; contract: string }
  | { name: 'staff-password set'; dataDir: string; contract: string; staffId: string; password?: string; rights?: Right[] }
  | { name: 'backup'; dataDir: string; to?: string; kind: 'manual' | 'daily' }
  | { name: 'restore'; dataDir: string; from: string }
  | { name: 'help' });

/** A module's command as parsed: its name and data dir, and what its own parse returned. */
export interface ModuleCommandLine {
  name: string;
  dataDir: string;
  database?: string;
  [option: string]: unknown;
}

export type Command = ServerCommand | ModuleCommandLine;

const OPTIONS = {
  'data-dir': { type: 'string' },
  database: { type: 'string' },
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
  backup: ['to', 'kind'],
  restore: ['from'],
};

/** Commands named by two words. */
const TWO_WORD = ['contract', 'client', 'staff-password'];

/**
 * The command line as a command: the server's own or a module's (its options join the table;
 * a module's option of a name the server also has must be of the same type).
 */
export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, modules: readonly ServerModule[] = []): Command {
  const plugged = moduleCommands(modules);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: optionTable(plugged), allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const { positionals } = parsed;
  const v = parsed.values as ValuesOf<typeof OPTIONS>;
  if (v.help || positionals.length === 0 || positionals[0] === 'help') return { name: 'help' };

  const twoWord = [...TWO_WORD, ...[...plugged.keys()].filter((n) => n.includes(' ')).map((n) => n.split(' ')[0]!)];
  const name = twoWord.includes(positionals[0]!) ? positionals.slice(0, 2).join(' ') : positionals[0]!;
  const command = plugged.get(name);
  const allowed = command ? Object.keys(command.options) : ALLOWED[name];
  if (!allowed) throw new UsageError(`unknown command "${positionals.join(' ')}"; run pos-backoffice --help`);
  const extraPositionals = positionals.slice(name.split(' ').length);
  if (extraPositionals.length) throw new UsageError(`unexpected argument "${extraPositionals[0]}"`);
  for (const key of Object.keys(v)) {
    if (key !== 'data-dir' && key !== 'database' && !allowed.includes(key)) throw new UsageError(`${name} does not take --${key}`);
  }
  const dataDir = v['data-dir'] ?? env.POS_DATA_DIR ?? './data';
  const database = databaseOption(name, v.database ?? env.POS_DATABASE_URL, v.role);
  if (command) return { name, dataDir, ...database, ...command.parse(parsed.values, env) };
  return { ...serverCommand(name, dataDir, v, env), ...database };
}

/**
 * The PostgreSQL URL, checked now so a typo is a usage line before anything starts (never
 * echoing the password). A store runs on its SQLite file, and a backup of PostgreSQL is pg_dump's.
 */
function databaseOption(name: string, value: string | undefined, role: string | undefined): DatabaseChoice {
  if (value === undefined || value.trim() === '') return {};
  try {
    parseDatabaseUrl(value);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new UsageError(`--database / POS_DATABASE_URL: ${error.message}`);
    throw error;
  }
  if (name === 'serve' && (role ?? 'store') !== 'central') throw new UsageError('--database (POS_DATABASE_URL) is for serve --role central: a store runs on the SQLite file in its data dir');
  if (name === 'backup' || name === 'restore') throw new UsageError(`${name} copies the SQLite file; back a PostgreSQL head office up with pg_dump and restore it with pg_restore (README, "Head office on PostgreSQL")`);
  return { database: value.trim() };
}

function serverCommand(name: string, dataDir: string, v: ValuesOf<typeof OPTIONS>, env: NodeJS.ProcessEnv): ServerCommand {
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

function staffPassword(dataDir: string, v: { contract?: string; staff?: string; password?: string; rights?: string }): ServerCommand {
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

function plan(value: string | undefined): Plan {
  if (!value) throw new UsageError('--plan is required');
  if (!isPlan(value)) throw new UsageError(`--plan must be one of ${PLANS.join(' ')}, got "${value}"`);
  return value;
}

function onOff(flag: string, value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new UsageError(`${flag} must be on or off, got "${value}"`);
  return value === 'on';
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

/** The modules' commands by name; a name the server or another module has is a mistake of composition. */
export function moduleCommands(modules: readonly ServerModule[]): Map<string, CliCommand> {
  const commands = new Map<string, CliCommand>();
  for (const command of modules.flatMap((m) => m.cli?.commands ?? [])) {
    if (ALLOWED[command.name] || command.name === 'help' || commands.has(command.name)) throw new Error(`two commands are named "${command.name}"`);
    commands.set(command.name, command);
  }
  return commands;
}

function optionTable(commands: Map<string, CliCommand>): OptionTable {
  const table: Record<string, OptionTable[string]> = { ...OPTIONS };
  for (const command of commands.values()) {
    for (const [option, spec] of Object.entries(command.options)) {
      const known = table[option];
      if (known && known.type !== spec.type) throw new Error(`--${option} of "${command.name}" is a ${spec.type}, elsewhere a ${known.type}`);
      table[option] = known ?? spec;
    }
  }
  return table;
}
