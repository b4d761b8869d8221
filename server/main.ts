#!/usr/bin/env -S node --max-semi-space-size=4
// The CLI entry and the only place that listens (DESIGN §2). The young generation is capped at
// 2 x 4 MB: V8's default lets startup grow it to 32 MB, kept for the life of the server, and
// requests gain nothing from more (same req/s, p99; 20-40 MB less resident, issue 13 item 7).
// `npm start` and the desktop shell pass the same flag (app/electron/server-process.ts SERVER_NODE_FLAGS).
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
