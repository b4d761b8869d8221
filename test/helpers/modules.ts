import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp as buildServerApp } from '../../server/app.js';
import { parseCommand as parseServerCommand, usage, type Command } from '../../server/cli/args.js';
import { runCommand as runServerCommand, type Io } from '../../server/cli/commands.js';
import type { AppDeps } from '../../server/deps.js';
import { startSchedules as startServerSchedules } from '../../server/jobs/schedules.js';
import type { ServerModule } from '../../server/modules.js';
import { syncModule } from '../../sync/module.js';

/**
 * The tests' composition root, as the top-level main.ts: the server with the sync module
 * plugged in, so a test builds the app, runs a command or starts the schedules as served.
 */
export const MODULES: readonly ServerModule[] = [syncModule];

export const buildApp = (deps: AppDeps): Promise<FastifyInstance> => buildServerApp(deps, MODULES);
export const startSchedules = (deps: AppDeps, log: FastifyBaseLogger): (() => Promise<void>) => startServerSchedules(deps, log, MODULES);
export const parseCommand = (argv: string[], env: NodeJS.ProcessEnv = process.env): Command => parseServerCommand(argv, env, MODULES);
export const runCommand = (command: Command, io: Io) => runServerCommand(command, io, MODULES);
export const USAGE = usage(MODULES);
export { UsageError } from '../../server/cli/args.js';
export { CommandError } from '../../server/cli/commands.js';
