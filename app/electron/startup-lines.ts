// The line `serve` prints before it upgrades the database (server/cli/commands.ts serve()):
// {"migrating":true,"from":25,"to":30,"backup":"…"}, before its pre-migration backup and the
// migrations, which may take minutes on a big store. After it the ready wait has no time limit
// (the server is working, not stuck) and the window says "updating the database…".

export interface MigratingLine {
  migrating: true;
  /** The database's migration version before, and the one this build brings it to. */
  from: number;
  to: number;
  /** The copy of the database as it was, taken first (<data-dir>/backups/…-pre-migration.sqlite). */
  backup: string;
}

/** The migrating line, or null for any other line (the ready line and the log's JSON lines included). */
export function parseMigratingLine(line: string): MigratingLine | null {
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const ok = value.migrating === true && Number.isInteger(value.from) && Number.isInteger(value.to) && typeof value.backup === 'string';
    return ok ? (value as unknown as MigratingLine) : null;
  } catch {
    return null;
  }
}
