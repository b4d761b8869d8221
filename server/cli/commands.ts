import { join } from 'node:path';
import { openDeps, type AppDeps } from '../deps.js';
import { systemClock } from '../clock.js';
import { engineOf, preparePostgres } from '../db/engine.js';
import { CLI_BUSY_TIMEOUT_MS, DATA_FILE_MODE, databaseFile, SERVER_BUSY_TIMEOUT_MS, setBusyTimeout, tighten } from '../db/open.js';
import { loggerOptions } from '../platform/http/logging.js';
import { ALL_SCOPES } from '../platform/http/scopes.js';
import { registerClient } from '../platform/auth/credentials.js';
import { hashPasswordSync } from '../platform/auth/password.js';
import { AuthRepo } from '../platform/auth/repo.js';
import { StaffLoginRepo } from '../platform/auth/staff-logins.js';
import { StaffRepo } from '../masters/staffs/repo.js';
import { ContractExistsError, ContractRepo, UnknownContractError } from '../platform/contracts/repo.js';
import { ensureDemoContracts } from '../seed/contracts.js';
import { seedDemo } from '../seed/demo.js';
import { DEMO_STAFF_PASSWORD, DEMO_STAFF_USERNAME } from '../seed/demo-staff.js';
import { VERSION } from '../version.js';
import { backupDatabase, BackupError } from '../backup/backup.js';
import { backupBeforeMigration, type MigratingNotice } from '../backup/before-migration.js';
import { restoreDatabase, RestoreError } from '../backup/restore.js';
import { DataDirBusyError, lockDataDir, type DataDirLock } from '../db/data-dir-lock.js';
import type { Io, ServerModule } from '../modules.js';
import { moduleCommands, usage, type Command, type ModuleCommandLine, type ServerCommand } from './args.js';
import { CommandError } from './errors.js';

export { CommandError } from './errors.js';
export type { Io } from '../modules.js';

export { databaseFile } from '../db/open.js';
/** Written by seed/contracts.ts for `serve --demo`. */
const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

async function withDeps<T>(dataDir: string, database: string | undefined, modules: readonly ServerModule[], fn: (deps: AppDeps) => T | Promise<T>): Promise<T> {
  // Like a server, a command keeps a restore from swapping the database under it.
  const lock = sharedLock(dataDir);
  try {
    // SQLite: the file is copied before a migration; PostgreSQL: reached and migrated (one line if not).
    const postgres = database === undefined ? undefined : await preparePostgres(database, systemClock.now());
    if (!postgres) await upgradeBackup(dataDir);
    // A one-shot command may wait for the running server's write to finish.
    // PostgreSQL is only ever head office's database (a store serves its SQLite file): a command
    // on it writes as central does, also before the first `serve --role central` recorded the role.
    const deps = openDeps({ file: databaseFile(dataDir), ...(database ? { postgresUrl: database, role: 'central' as const } : {}), busyTimeoutMs: CLI_BUSY_TIMEOUT_MS });
    try {
      // Records a command makes are written as the server of this data dir writes them (sync:
      // the linked node's ids, their outbox / change-log rows). A command that asks the network
      // (link) closes the database once it has its answer.
      return await fn(modules.reduce((prepared, m) => m.cli?.commandDeps?.(prepared) ?? prepared, deps));
    } finally {
      deps.db.close();
    }
  } finally {
    lock.release();
  }
}

/** The data dir's shared lock (db/data-dir-lock.ts): refused while a restore replaces the database. */
function sharedLock(dataDir: string): DataDirLock {
  try {
    return lockDataDir(dataDir, 'shared');
  } catch (error) {
    throw error instanceof DataDirBusyError ? new CommandError(error.message) : error;
  }
}

/** The pre-migration backup (backup/before-migration.ts); `notify` hears of the migration to come. */
async function upgradeBackup(dataDir: string, notify?: (notice: MigratingNotice) => void): Promise<void> {
  try {
    await backupBeforeMigration(dataDir, notify);
  } catch (error) {
    throw error instanceof BackupError ? new CommandError(error.message) : error;
  }
}

const json = (io: Io, value: unknown) => io.out(JSON.stringify(value));

/** Runs a one-shot command; `serve` returns the running server's close function instead. */
export async function runCommand(command: Command, io: Io, modules: readonly ServerModule[]): Promise<(() => Promise<void>) | void> {
  const plugged = moduleCommands(modules).get(command.name);
  if (plugged) {
    const line = command as ModuleCommandLine;
    // A module's command never serves: nothing it returns is a close function.
    await withDeps(line.dataDir, line.database, modules, (deps) => plugged.run(deps, line, io));
    return;
  }
  return runServerCommand(command as ServerCommand, io, modules);
}

async function runServerCommand(command: ServerCommand, io: Io, modules: readonly ServerModule[]): Promise<(() => Promise<void>) | void> {
  const withData = <T>(fn: (deps: AppDeps) => T | Promise<T>) => withDeps('dataDir' in command ? command.dataDir : '', command.database, modules, fn);
  switch (command.name) {
    case 'help':
      return io.out(usage(modules));
    case 'contract create':
      return withData((deps) => {
        const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
        try {
          const c = contracts.create({ contractId: command.id, name: command.contractName ?? command.id, plan: command.plan, timeZone: command.timeZone });
          json(io, c);
        } catch (error) {
          if (error instanceof ContractExistsError) throw new CommandError(error.message);
          throw error;
        }
      });
    case 'contract set-plan':
      return withData((deps) => {
        try {
          json(io, new ContractRepo(deps.db, deps.writer, deps.clock).setPlan(command.id, command.plan));
        } catch (error) {
          if (error instanceof UnknownContractError) throw new CommandError(error.message);
          throw error;
        }
      });
    case 'contract set':
      return withData((deps) => {
        try {
          json(io, new ContractRepo(deps.db, deps.writer, deps.clock).setSettings(command.id, command.settings));
        } catch (error) {
          if (error instanceof UnknownContractError) throw new CommandError(error.message);
          throw error;
        }
      });
    case 'client create':
      return withData((deps) => {
        if (!new ContractRepo(deps.db, deps.writer, deps.clock).find(command.contract)) {
          throw new CommandError(`contract ${command.contract} does not exist`);
        }
        json(io, registerClient(new AuthRepo(deps.db, deps.writer, deps.clock), command.contract, command.scopes ?? ALL_SCOPES));
      });
    case 'seed':
      return withData((deps) => {
        const contract = new ContractRepo(deps.db, deps.writer, deps.clock).find(command.contract);
        if (!contract) throw new CommandError(`contract ${command.contract} does not exist`);
        json(io, seedDemo(deps, contract.contractId, contract.plan));
      });
    case 'staff-password set':
      return withData((deps) => json(io, setStaffPassword(deps, command)));
    case 'backup':
      try {
        return json(io, await backupDatabase({ dataDir: command.dataDir, kind: command.kind, ...(command.to !== undefined ? { to: command.to } : {}) }));
      } catch (error) {
        throw error instanceof BackupError ? new CommandError(error.message) : error;
      }
    case 'restore':
      try {
        return json(io, restoreDatabase({ dataDir: command.dataDir, from: command.from }));
      } catch (error) {
        if (error instanceof RestoreError || error instanceof DataDirBusyError) throw new CommandError(error.message);
        throw error;
      }
    case 'serve':
      return serve(command, io, modules);
  }
}

/** Sets a staff member's back-office password and/or rights; the output never holds the password. */
function setStaffPassword(deps: AppDeps, command: Extract<ServerCommand, { name: 'staff-password set' }>) {
  if (!new ContractRepo(deps.db, deps.writer, deps.clock).find(command.contract)) {
    throw new CommandError(`contract ${command.contract} does not exist`);
  }
  const staff = new StaffRepo(deps.db, deps.writer, deps.ids, deps.clock).find(command.contract, command.staffId);
  if (!staff) throw new CommandError(`staff ${command.staffId} does not exist in contract ${command.contract}`);
  // The staff code is the username: a login without one could never be used.
  if (staff.staff_code === null) throw new CommandError(`staff ${command.staffId} has no staffCode, the username of the login; set one first (PATCH /staffs/${command.staffId})`);
  const logins = new StaffLoginRepo(deps.db, deps.writer, deps.clock);
  let login;
  if (command.password !== undefined) {
    login = logins.set(command.contract, command.staffId, hashPasswordSync(command.password), command.rights);
  } else {
    login = logins.setRights(command.contract, command.staffId, command.rights ?? []);
    if (!login) throw new CommandError(`staff ${command.staffId} has no password yet; give --password`);
  }
  return {
    contractId: command.contract,
    staffId: login.staffId,
    username: login.staffCode,
    rights: login.rights,
    passwordChanged: command.password !== undefined,
  };
}

/**
 * `serve` holds the data dir's shared lock from before it opens the database until it has closed
 * it, so `restore` is refused the whole time. An upgrade prints {"migrating":true,"from","to",
 * "backup"} before it backs the database up and migrates it, which may take long on a big store:
 * the desktop app then waits for the ready line without its time limit.
 */
async function serve(command: Extract<ServerCommand, { name: 'serve' }>, io: Io, modules: readonly ServerModule[]): Promise<() => Promise<void>> {
  const lock = sharedLock(command.dataDir);
  let close: () => Promise<void>;
  try {
    let database: string;
    if (command.database) {
      database = await preparePostgres(command.database, systemClock.now());
    } else {
      await upgradeBackup(command.dataDir, (notice) => json(io, { migrating: true, ...notice }));
      database = databaseFile(command.dataDir);
    }
    close = await listen(command, database, io, modules);
  } catch (error) {
    lock.release();
    throw error;
  }
  return async () => {
    try {
      await close();
    } finally {
      lock.release();
    }
  };
}

/** `database`: what the ready line names, the SQLite file or the PostgreSQL URL without its password. */
async function listen(command: Extract<ServerCommand, { name: 'serve' }>, database: string, io: Io, modules: readonly ServerModule[]): Promise<() => Promise<void>> {
  // Starting up (migrations, demo data) may wait for a CLI command's lock; serving may not.
  const deps = openDeps({
    file: databaseFile(command.dataDir),
    ...(command.database ? { postgresUrl: command.database } : {}),
    role: command.role,
    ...(command.node !== undefined ? { node: command.node } : {}),
    logger: loggerOptions(process.env.POS_LOG_LEVEL ?? 'info'),
    busyTimeoutMs: CLI_BUSY_TIMEOUT_MS,
    ui: { lan: command.uiLan },
    ...(command.publicUrl ? { publicUrl: command.publicUrl } : {}),
    ...(command.webhookAllow ? { webhookAllow: command.webhookAllow } : {}),
    ...(command.rateLimits ? { rateLimits: command.rateLimits } : {}),
  });
  try {
    // Sync: a linked store mints ids with the node central knows it by.
    for (const m of modules) m.cli?.beforeServe?.(deps, command.node !== undefined ? { node: command.node } : {});
    // The demo data is written like any other record: into the outbox (or central's change log),
    // so a demo store linked to head office later pushes its stores, terminals and sales.
    for (const m of modules) m.installWriteHooks?.(deps);
  } catch (error) {
    deps.db.close();
    throw error;
  }
  const demo = command.demo ? ensureDemoContracts(deps, command.dataDir) : [];
  // It holds the demo client's secret; one written before file modes were kept is tightened.
  tighten(join(command.dataDir, DEMO_CREDENTIALS_FILE), DATA_FILE_MODE);
  if (engineOf(deps.db) === 'sqlite') setBusyTimeout(deps.db, SERVER_BUSY_TIMEOUT_MS);
  // Loaded here so the one-shot commands start without the HTTP stack.
  const { buildApp } = await import('../app.js');
  const { startSchedules } = await import('../jobs/schedules.js');
  const app = await buildApp(deps, modules);
  let address: string;
  try {
    address = await app.listen({ host: command.host, port: command.port });
  } catch (error) {
    await app.close();
    deps.db.close();
    const e = error as NodeJS.ErrnoException;
    throw new CommandError(e.code === 'EADDRINUSE' ? `port ${command.port} on ${command.host} is already in use` : `cannot listen on ${command.host}:${command.port}: ${e.message}`);
  }
  // Automatic closings, webhook deliveries, sync with central and the nightly clean-up (jobs/schedules.ts).
  const stopSchedules = startSchedules(deps, app.log, modules);
  const url = address.replace('://[::1]', '://localhost');
  const contracts = demo.map((d) => ({
    contractId: d.contractId,
    plan: d.plan,
    baseUrl: `${url}/${d.contractId}/pos`,
    tokenUrl: `${url}/app/${d.contractId}/token`,
    clientId: d.clientId,
    clientSecret: d.clientSecret,
    // The demo staff member who may log in (grant_type=password) with back-office rights.
    staffUsername: DEMO_STAFF_USERNAME,
    staffPassword: DEMO_STAFF_PASSWORD,
  }));
  json(io, { ready: true, version: VERSION, role: command.role, url, dataDir: command.dataDir, engine: engineOf(deps.db), database, docs: `${url}/docs`, ui: `${url}/ui/`, contracts });
  io.out(`ui: ${url}/ui/${command.uiLan ? ' (LAN access on)' : ' (this PC only; serve --ui-lan opens it to the LAN)'}`);
  for (const c of contracts) {
    io.out(`${c.contractId} (${c.plan}): base URL ${c.baseUrl}  token URL ${c.tokenUrl}  client id ${c.clientId}  client secret ${c.clientSecret}  staff login ${c.staffUsername} / ${c.staffPassword}`);
  }
  // Each step is logged: a stop that hangs shows which part it waits for.
  return async () => {
    app.log.info({ step: 'schedules' }, 'stopping');
    await stopSchedules();
    app.log.info({ step: 'http and its jobs' }, 'stopping');
    await app.close();
    app.log.info({ step: 'database' }, 'stopping');
    deps.db.close();
    app.log.info('stopped');
  };
}
