#!/usr/bin/env node
// The CLI entry and the only place that listens (DESIGN §2).
import { NewerDatabaseError } from './db/migrate.js';
import { parseCommand, UsageError } from './cli/args.js';
import { CommandError, runCommand } from './cli/commands.js';

async function main(): Promise<number> {
  let command;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pos-backoffice: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  try {
    const stop = await runCommand(command, { out: (line) => process.stdout.write(`${line}\n`) });
    if (stop) {
      const shutdown = () => void stop().then(() => process.exit(0));
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
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

main().then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pos-backoffice: ${(error as Error).message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
