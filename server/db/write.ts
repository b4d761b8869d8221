import type { Sqlite } from './open.js';

/**
 * The one way the server writes. Every business change runs inside `write`, which opens
 * an IMMEDIATE SQLite transaction (so concurrent writers queue on the busy timeout instead
 * of failing mid-way). The sync module adds its outbox row through `afterChange` hooks,
 * which run inside the same transaction, so a change and its outbox row commit together.
 */
export type ChangeHook = (change: Change) => void;

export interface Change {
  contractId: string;
  entity: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
}

export class Writer {
  private readonly hooks: ChangeHook[] = [];
  private pending: Change[] | null = null;

  constructor(private readonly db: Sqlite) {}

  /** Runs fn in one IMMEDIATE transaction; nested calls join the outer transaction. */
  write<T>(fn: () => T): T {
    if (this.pending) return fn();
    this.pending = [];
    try {
      return this.db
        .transaction(() => {
          const result = fn();
          for (const change of this.pending ?? []) for (const hook of this.hooks) hook(change);
          return result;
        })
        .immediate();
    } finally {
      this.pending = null;
    }
  }

  /** Repos report what they changed; hooks see it before the transaction commits. */
  changed(change: Change): void {
    if (!this.pending) throw new Error('changed() called outside write()');
    this.pending.push(change);
  }

  onChange(hook: ChangeHook): void {
    this.hooks.push(hook);
  }
}
