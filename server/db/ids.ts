import type { Sqlite } from './open.js';

/**
 * Mints ids as `<per-table sequence><node, 3 digits>` (DESIGN §4): central is node 0,
 * stores 1..999, so no two instances ever mint the same id and sync never re-keys a record.
 * Call it inside Writer.write so the sequence step commits with the row that uses it.
 */
export class IdAllocator {
  private readonly step;
  readonly suffix: string;

  constructor(db: Sqlite, readonly node: number) {
    if (!Number.isInteger(node) || node < 0 || node > 999) {
      throw new RangeError(`node number must be an integer from 0 to 999, got ${node}`);
    }
    this.suffix = String(node).padStart(3, '0');
    this.step = db.prepare(
      `INSERT INTO id_sequences (name, last) VALUES (?, 1)
       ON CONFLICT (name) DO UPDATE SET last = last + 1 RETURNING last`,
    );
  }

  next(table: string): string {
    const { last } = this.step.get(table) as { last: number };
    return `${last}${this.suffix}`;
  }
}
