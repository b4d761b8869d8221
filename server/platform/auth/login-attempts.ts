import type { Clock } from '../../clock.js';

/** An attempt `take` counted; handed back to `giveBack` when the login succeeds. */
export interface TakenAttempt {
  taken: true;
  key: string;
  /** When the window it was counted in began (ms): a give-back never reaches into a later window. */
  windowStart: number;
}

export interface RefusedAttempt {
  taken: false;
  /** How long until the key's window ends and it may try again. */
  retryAfterMs: number;
}

/**
 * The login throttle's counters, one per key (a username, a client address), each counted in a
 * fixed window that its first attempt begins. Counting and refusing are one step, so attempts
 * sent in parallel cannot all pass a check before any of them is counted. Asynchronous so a
 * store shared by several server processes (the database) can stand in for the memory one.
 */
export interface LoginAttempts {
  /** Counts an attempt against `key` if fewer than `max` are counted in its window; else refuses it, counting nothing. */
  take(key: string, max: number, windowMs: number): Promise<TakenAttempt | RefusedAttempt>;
  /** Takes back an attempt that `take` counted, if its window has not ended since. */
  giveBack(attempt: TakenAttempt): Promise<void>;
}

interface Window {
  start: number;
  end: number;
  count: number;
}

/**
 * The counters in this process's memory: they last until the server stops. A key is kept only
 * while its window lasts and something is counted in it, so refused attempts (which a flood
 * consists of) add nothing.
 */
export class MemoryLoginAttempts implements LoginAttempts {
  // In the order windows began: nearly the order they end, so expired ones are dropped from the front.
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  async take(key: string, max: number, windowMs: number): Promise<TakenAttempt | RefusedAttempt> {
    const now = this.clock.now().getTime();
    this.dropEnded(now);
    let window = this.windows.get(key);
    if (!window || window.end <= now) {
      this.windows.delete(key);
      window = { start: now, end: now + windowMs, count: 0 };
    }
    if (window.count >= max) return { taken: false, retryAfterMs: window.end - now };
    window.count++;
    this.windows.set(key, window);
    return { taken: true, key, windowStart: window.start };
  }

  async giveBack(attempt: TakenAttempt): Promise<void> {
    const window = this.windows.get(attempt.key);
    if (!window || window.start !== attempt.windowStart) return;
    window.count--;
    if (window.count <= 0) this.windows.delete(attempt.key);
  }

  private dropEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.end > now) break;
      this.windows.delete(key);
    }
  }
}
