import type { FastifyServerOptions } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import { IdAllocator } from './db/ids.js';
import { migrate } from './db/migrate.js';
import { openDatabase, type Sqlite } from './db/open.js';
import { Writer } from './db/write.js';

export type Role = 'store' | 'central';

export interface AppConfig {
  role: Role;
  /** Id allocator node number: central 0, stores 1..999 (DESIGN §4). */
  node: number;
  /**
   * Check every response against its zod schema before sending. Tests turn it on so a
   * presenter that drifts from its schema fails loudly; the server sends the presenters'
   * typed objects with plain JSON.stringify (the check cost 5-7% of a simple GET).
   */
  checkResponses: boolean;
}

/** What buildApp(deps) receives; tests build their own with a fixed clock. */
export interface AppDeps {
  db: Sqlite;
  writer: Writer;
  ids: IdAllocator;
  clock: Clock;
  config: AppConfig;
  logger: FastifyServerOptions['logger'];
}

export const defaultNode = (role: Role) => (role === 'central' ? 0 : 1);

/** Opens (and migrates) the database file and wires the shared parts around it. */
export function openDeps(options: {
  file: string;
  role?: Role;
  node?: number;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  checkResponses?: boolean;
}): AppDeps {
  const role = options.role ?? 'store';
  const node = options.node ?? defaultNode(role);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(options.file);
  try {
    migrate(db, undefined, clock.now());
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, writer: new Writer(db), ids: new IdAllocator(db, node), clock, config: { role, node, checkResponses: options.checkResponses ?? false }, logger: options.logger ?? false };
}
