import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type Sqlite = Database.Database;

/**
 * Opens the SQLite file with the pragmas the appliance relies on:
 * WAL so terminals can read while a sale is written, synchronous=FULL so a sale
 * acknowledged to a terminal survives a power cut, foreign keys on, and a busy
 * timeout so the CLI can write while the server runs.
 */
export function openDatabase(file: string): Sqlite {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
