// The CLI's run: parse the command line, run the command, map the operator's errors to exit
// codes. The entry that calls it is the top-level main.ts, the composition root that hands in
// the modules (server/modules.ts); `npm start` goes through server/start.ts, the desktop shell
// starts main.js itself.
import { NewerDatabaseError } from '../db/migrate.js';
import type { ServerModule } from '../modules.js';
import { parseCommand, UsageError } from './args.js';
import { CommandError, runCommand } from './commands.js';

/** Runs the command named by `argv` with the modules' commands, routes, hooks and jobs; sets the process's exit code, or keeps it serving. */
export async function runMain(modules: readonly ServerModule[], argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  try {
    const code = await main([...argv], modules);
    if (code >= 0) process.exitCode = code;
  } catch (error) {
    process.stderr.write(`pos-backoffice: ${(error as Error).message ?? String(error)}\n`);
    process.exitCode = 1;
  }
}

async function main(argv: string[], modules: readonly ServerModule[]): Promise<number> {
  let command;
  try {
    command = parseCommand(argv, process.env, modules);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pos-backoffice: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  // Installed before serve starts: a stop that arrives between the ready line and the moment
  // serve hands back its close function is kept and acted on then, not a kill by default.
  let stop: (() => Promise<void>) | undefined;
  let asked = 0;
  let stopping = false;
  const shutdown = () => {
    asked++;
    // Still starting (migrating, seeding): the stop waits for the start, unless asked again
    // (a third signal: `npm start` doubles each Ctrl-C); nothing was acknowledged yet, and a
    // migration rolls back whole.
    if (!stop) return void (asked > 2 && process.exit(130));
    // Once: a terminal's Ctrl-C under `npm start` arrives from the terminal and again from npm,
    // and a second signal must not cut the first one's close of the database short.
    if (stopping) return;
    stopping = true;
    void stop().then(() => process.exit(0));
  };
  if (command.name === 'serve') for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);
  try {
    stop = (await runCommand(command, { out: (line) => process.stdout.write(`${line}\n`) }, modules)) ?? undefined;
    if (stop) {
      if (asked > 0) shutdown();
      return -1; // keep running
    }
    return 0;
  } catch (error) {
    if (error instanceof CommandError || error instanceof NewerDatabaseError) {
      process.stderr.write(`pos-backoffice: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
