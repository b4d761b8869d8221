import type { Clock } from '../server/clock.js';
import type { Sqlite } from '../server/db/open.js';
import { dialectOf } from '../server/db/engine.js';

/**
 * Hybrid logical clock (DESIGN §5): wall milliseconds from the injected clock, a counter for
 * events in the same millisecond (or while the wall clock lags a remote one), and the node
 * number that breaks ties. The string form `<wall 15 digits>-<counter 6 digits>-<node 3 digits>`
 * sorts in time order, ties by node, so versions are compared as plain strings.
 */
export interface HlcValue {
  wall: number;
  counter: number;
  node: number;
}

const FORM = /^(\d{15})-(\d{6})-(\d{3})$/;
const MAX_COUNTER = 999_999;

export function formatHlc(v: HlcValue): string {
  return `${String(v.wall).padStart(15, '0')}-${String(v.counter).padStart(6, '0')}-${String(v.node).padStart(3, '0')}`;
}

export function parseHlc(text: string): HlcValue {
  const m = FORM.exec(text);
  if (!m) throw new RangeError(`not an HLC value: "${text}"`);
  return { wall: Number(m[1]), counter: Number(m[2]), node: Number(m[3]) };
}

export const isHlc = (text: string): boolean => FORM.test(text);

/** Compares two HLC strings: negative when a is earlier. */
export const compareHlc = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A remote clock more than this ahead of ours is not followed (a broken clock must not drag ours). */
export const MAX_DRIFT_MS = 24 * 60 * 60 * 1000;

export class Hlc {
  private last: HlcValue;
  private readonly save;
  private readonly load;

  private currentNode: number;

  constructor(
    private readonly db: Sqlite,
    private readonly clock: Clock,
    node: number,
  ) {
    this.currentNode = node;
    this.load = db.prepare('SELECT last FROM sync_hlc WHERE id = 1').pluck();
    this.last = { wall: 0, counter: 0, node };
    this.catchUp();
    // Another process on the same file (a one-shot command) may have moved it on: keep the later.
    this.save = db.prepare(`INSERT INTO sync_hlc (id, last) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last = ${dialectOf(db).greatestOf('sync_hlc.last', 'excluded.last')}`);
  }

  /** The node that breaks ties between this clock's values and another's. */
  get node(): number {
    return this.currentNode;
  }

  /** A fresh store takes the node central gave it at setup (sync/setup.ts); later values carry it. */
  renumber(node: number): void {
    this.currentNode = node;
  }

  /** The current value without advancing it. */
  peek(): string {
    return formatHlc({ ...this.last, node: this.node });
  }

  /** A new timestamp for a local event, later than every one this clock has issued or received. */
  now(): string {
    this.catchUp();
    const wall = this.clock.now().getTime();
    const next = wall > this.last.wall ? { wall, counter: 0, node: this.node } : this.bump(this.last.wall, this.last.counter + 1);
    return this.commit(next);
  }

  /** Merges a remote timestamp (from a message) and returns a new local one later than both. */
  receive(remote: string): string {
    const r = parseHlc(remote);
    this.catchUp();
    const wall = this.clock.now().getTime();
    if (r.wall > wall + MAX_DRIFT_MS) return this.now(); // a wild clock is measured as skew, not followed
    const top = Math.max(wall, this.last.wall, r.wall);
    let counter = 0;
    if (top === this.last.wall && top === r.wall) counter = Math.max(this.last.counter, r.counter) + 1;
    else if (top === this.last.wall) counter = this.last.counter + 1;
    else if (top === r.wall) counter = r.counter + 1;
    return this.commit(this.bump(top, counter));
  }

  /** Moves past the value persisted by another process on the same database, if later. */
  private catchUp(): void {
    const stored = this.load.get() as string | undefined;
    if (stored === undefined) return;
    const v = parseHlc(stored);
    if (v.wall > this.last.wall || (v.wall === this.last.wall && v.counter > this.last.counter)) this.last = v;
  }

  private bump(wall: number, counter: number): HlcValue {
    // A counter that would overflow its digits moves the clock on by one millisecond.
    return counter > MAX_COUNTER ? { wall: wall + 1, counter: 0, node: this.node } : { wall, counter, node: this.node };
  }

  private commit(next: HlcValue): string {
    this.last = next;
    const text = formatHlc(next);
    this.save.run(text);
    return text;
  }
}
