import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps.js';
import type { OptionTable, ValuesOf } from './cli/options.js';
import type { RateLimits } from './platform/http/rate-limits.js';
import type { HeadOfficeLink } from './platform/setup/head-office.js';

/**
 * What a module plugged in from outside may add to the server (DESIGN §2): server/ imports no
 * module; the composition root (the top-level main.ts) hands the modules to the CLI, which
 * passes them on to buildApp (server/app.ts) and the job scheduler (server/jobs/schedules.ts).
 * Tests hand them in through test/helpers. The sync module (sync/module.ts) is the one there is.
 */
export interface ServerModule {
  readonly name: string;
  /**
   * Hooks on every write (Writer.onChange: they run inside the write's transaction), installed
   * on deps before anything writes. Installing twice on the same deps installs once.
   */
  installWriteHooks?(deps: AppDeps): void;
  /** Resources served under /{contract_id}/pos with the API's bearer auth, scopes and limits. */
  readonly apiRoutes?: readonly Routes[];
  /** Routes of its own outside the API, with their own auth; the limits are the app's (per node, ...). */
  registerRoutes?(app: FastifyInstance, deps: AppDeps, limits: RateLimits): Promise<void>;
  /** The setup screen's head-office way (a store's first run). */
  headOfficeLink?(deps: AppDeps): HeadOfficeLink;
  /** Background work of a serving instance, started once it listens; each stop waits for the work in flight. */
  startJobs?(deps: AppDeps, log: FastifyBaseLogger): (() => Promise<void>)[];
  readonly cli?: ModuleCli;
}

/** The plugin of a resource's routes, made with the app's deps. */
export type Routes = (deps: AppDeps) => FastifyPluginAsyncZod;

export interface ModuleCli {
  /** Listed by --help after the server's own record commands, in this order. */
  readonly commands: readonly CliCommand[];
  /** Lines --help prints after the commands (what a command's LIST holds). */
  readonly notes?: readonly string[];
  /** The deps every one-shot command writes with (the role, node and write hooks a server of the data dir would have). */
  commandDeps?(deps: AppDeps): AppDeps;
  /** Before `serve` writes anything; `node` is --node if given. A refusal is a CommandError. */
  beforeServe?(deps: AppDeps, options: { node?: number }): void;
}

export interface Io {
  out(line: string): void;
}

/** A command of the CLI: `pos-backoffice <name> [options] --data-dir DIR`. */
export interface CliCommand<O extends OptionTable = OptionTable, P extends object = object> {
  /** One word or two, as typed (`link`, `node add`). */
  readonly name: string;
  /** Its --help line(s) without the first line's indent; further lines keep theirs. */
  readonly usage: string;
  /** The options it takes besides --data-dir; any other is a usage error. */
  readonly options: O;
  /** What run gets besides name and dataDir; a bad command line throws UsageError (exit 2). */
  parse(values: ValuesOf<O>, env: NodeJS.ProcessEnv): P;
  /**
   * Runs on the data dir's database, opened and prepared as for every command (ModuleCli
   * commandDeps) and closed afterwards; prints one JSON line per result through io. A failure
   * the operator can act on is a CommandError (exit 1).
   */
  run(deps: AppDeps, command: P, io: Io): void | Promise<void>;
}

/** A command with its option table's types checked, listed among others of other tables. */
export function defineCommand<const O extends OptionTable, P extends object>(command: CliCommand<O, P>): CliCommand {
  return command as unknown as CliCommand;
}
