import type { Sqlite } from './open.js';

/**
 * Mints ids as `<per-table sequence><node, 3 digits>` (DESIGN §4): central is node 0,
 * stores 1..999, so no two instances ever mint the same id and sync never re-keys a record.
 * Call it inside Writer.write so the sequence step commits with the row that uses it.
 */
export class IdAllocator {
  private readonly step;
  private readonly stepBy;
  private currentNode = 0;
  private suffix = '000';

  constructor(db: Sqlite, node: number) {
    this.renumber(node);
    this.step = db.prepare(
      `INSERT INTO id_sequences (name, last) VALUES (?, 1)
       ON CONFLICT (name) DO UPDATE SET last = id_sequences.last + 1 RETURNING last`,
    );
    this.stepBy = db.prepare(
      `INSERT INTO id_sequences (name, last) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET last = id_sequences.last + excluded.last RETURNING last`,
    );
  }

  get node(): number {
    return this.currentNode;
  }

  /**
   * Mints with another node from now on. Only for a store set up from the UI while it serves: it
   * starts as node 1 and takes the node central gave it when the link is saved, which is allowed
   * only while the data dir has no contract, so nothing was minted with the old node.
   */
  renumber(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node > 999) {
      throw new RangeError(`node number must be an integer from 0 to 999, got ${node}`);
    }
    this.currentNode = node;
    this.suffix = String(node).padStart(3, '0');
  }

  next(table: string): string {
    const { last } = this.step.get(table) as { last: number };
    return `${last}${this.suffix}`;
  }

  /**
   * `count` consecutive ids of a table in one step (a record's many child rows: a 1,000-line
   * purchase order), the same ids `count` calls of `next` would mint.
   */
  block(table: string, count: number): string[] {
    if (!Number.isInteger(count) || count < 1) return [];
    const { last } = this.stepBy.get(table, count) as { last: number };
    return Array.from({ length: count }, (_, i) => `${last - count + 1 + i}${this.suffix}`);
  }
}
