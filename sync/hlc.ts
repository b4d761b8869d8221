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
/** A save refused this many times in a row (another process in the same slot minting without pause) is an error. */
const MAX_MINT_ATTEMPTS = 100;

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

/**
 * The clock of one instance, persisted in `sync_hlc` so it never goes back across restarts.
 *
 * Several central processes on one PostgreSQL database (issue 24) mint from one clock without
 * waiting on each other: each claims a slot (dialect hlcSlots: one of 100, held by a session
 * advisory lock) and mints only counters that leave its slot's remainder modulo 100, so two
 * processes never mint the same value; each saves its last value in its own slot's row (id =
 * slot + 1) and catches up from the latest of all rows before every value, so a value is later
 * than every one any process had committed when it was minted. The save keeps the row's value
 * unless the new one is later, and a value it did not save is minted again after catching up:
 * two processes sharing a slot (all taken, or a claim lost with its connection until the next
 * value notices) wait for each other's save to commit and still never keep the same value.
 * SQLite: one slot (row 1), every counter, as its one writer always did.
 */
export class Hlc {
  private last: HlcValue;
  private readonly save;
  private readonly load;
  private readonly claim;
  /** This process's slot and the step between its counters (1 on SQLite). */
  private slot = 0;
  private readonly stride: number;
  /** The session the slot was claimed in; another one means the connection was opened again. */
  private session: unknown;

  private currentNode: number;
  private mints = 0;

  constructor(
    private readonly db: Sqlite,
    private readonly clock: Clock,
    node: number,
  ) {
    this.currentNode = node;
    const slots = dialectOf(db).hlcSlots();
    this.stride = slots.count;
    this.claim = db.prepare(slots.claim);
    this.load = db.prepare(`SELECT max(last) AS last, ${slots.session} AS session FROM sync_hlc`);
    // Only a later value replaces the row's: 0 changes when another process (or a one-shot command
    // on the same file) saved one at least as late meanwhile, and the value is minted again.
    this.save = db.prepare('INSERT INTO sync_hlc (id, last) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET last = excluded.last WHERE sync_hlc.last < excluded.last');
    this.last = { wall: 0, counter: 0, node };
    this.claimSlot();
    this.catchUp();
  }

  /** The node that breaks ties between this clock's values and another's. */
  get node(): number {
    return this.currentNode;
  }

  /** A fresh store takes the node central gave it at setup (sync/setup.ts); later values carry it. */
  renumber(node: number): void {
    this.currentNode = node;
  }

  /** How many times this clock minted and saved a value (now, receive, nowMany): a caller can tell whether its work minted one. */
  get minted(): number {
    return this.mints;
  }

  /** The current value without advancing it. */
  peek(): string {
    return formatHlc({ ...this.last, node: this.node });
  }

  /** A new timestamp for a local event, later than every one this clock has issued or received. */
  now(): string {
    return this.mint(() => {
      const wall = this.clock.now().getTime();
      return wall > this.last.wall ? this.at(wall, 0) : this.at(this.last.wall, this.last.counter + 1);
    });
  }

  /** Merges a remote timestamp (from a message) and returns a new local one later than both. */
  receive(remote: string): string {
    const r = parseHlc(remote);
    if (r.wall > this.clock.now().getTime() + MAX_DRIFT_MS) return this.now(); // a wild clock is measured as skew, not followed
    return this.mint(() => {
      const wall = this.clock.now().getTime();
      const top = Math.max(wall, this.last.wall, r.wall);
      let counter = 0;
      if (top === this.last.wall && top === r.wall) counter = Math.max(this.last.counter, r.counter) + 1;
      else if (top === this.last.wall) counter = this.last.counter + 1;
      else if (top === r.wall) counter = r.counter + 1;
      return this.at(top, counter);
    });
  }

  /**
   * `count` new timestamps for local events, each later than the one before: what as many now()
   * calls give, minted from one catch-up and saved once (the last), so a write that logs several
   * entries pays two statements for its clock rather than two per entry (on PostgreSQL each is a
   * round trip). A refused save mints them all again after catching up, as now() does one.
   */
  nowMany(count: number): string[] {
    if (count <= 0) return [];
    return this.mintRun(count, () => {
      const wall = this.clock.now().getTime();
      return wall > this.last.wall ? this.at(wall, 0) : this.at(this.last.wall, this.last.counter + 1);
    });
  }

  /**
   * Merges a remote timestamp without minting one: the next value this clock mints is later than
   * it, and saving that value persists both. For a caller that mints in the same transaction
   * anyway (central's push, whose answer is minted in the push's write), it spares receive()'s
   * catch-up and save. A remote clock too far ahead (MAX_DRIFT_MS) is not followed, as receive().
   */
  observe(remote: string): void {
    const r = parseHlc(remote);
    if (r.wall > this.clock.now().getTime() + MAX_DRIFT_MS) return;
    if (r.wall > this.last.wall || (r.wall === this.last.wall && r.counter > this.last.counter)) this.last = { wall: r.wall, counter: r.counter, node: this.node };
  }

  /** Catches up, computes the next value and saves it; again (caught up further) while the save is refused. */
  private mint(next: () => HlcValue): string {
    return this.mintRun(1, next)[0]!;
  }

  /** Catches up, computes `count` values one after the other and saves the last; all again (caught up further) while the save is refused. */
  private mintRun(count: number, next: () => HlcValue): string[] {
    for (let attempt = 1; ; attempt++) {
      this.catchUp();
      const before = this.last;
      const values: HlcValue[] = [];
      let saved = false;
      try {
        for (let k = 0; k < count; k++) {
          this.last = next();
          values.push(this.last);
        }
        saved = this.save.run(this.slot + 1, formatHlc(this.last)).changes > 0;
      } finally {
        // Only a saved value is this clock's last (a refused or failed save leaves it as it was).
        if (!saved) this.last = before;
      }
      if (saved) {
        this.mints++;
        return values.map(formatHlc);
      }
      if (attempt >= MAX_MINT_ATTEMPTS) throw new Error(`the clock's value was overtaken ${attempt} times in a row in slot ${this.slot}`);
    }
  }

  /** Moves past the latest value any process persisted on the same database; claims a slot again if the connection was opened again. */
  private catchUp(): void {
    const { last: stored, session } = this.load.get() as { last: string | null; session: unknown };
    if (session !== this.session) this.claimSlot();
    if (stored === null) return;
    const v = parseHlc(stored);
    if (v.wall > this.last.wall || (v.wall === this.last.wall && v.counter > this.last.counter)) this.last = v;
  }

  private claimSlot(): void {
    const { slot, session } = this.claim.get() as { slot: number; session: unknown };
    this.slot = slot;
    this.session = session;
  }

  /** The first value of this slot at `wall` with a counter of at least `min`; past the counter's digits, the next millisecond's first. */
  private at(wall: number, min: number): HlcValue {
    const counter = min <= this.slot ? this.slot : this.slot + Math.ceil((min - this.slot) / this.stride) * this.stride;
    return counter > MAX_COUNTER ? { wall: wall + 1, counter: this.slot, node: this.node } : { wall, counter, node: this.node };
  }
}
