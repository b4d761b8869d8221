// "Repeated crashes in a short time": the moments of recent crashes, forgotten once older than the
// window. The server supervisor and the window's renderer both use it to tell a crash worth
// retrying from a crash loop that only a person can end.

export class CrashWindow {
  private times: number[] = [];

  constructor(
    /** Crashes within the window that mean "give up". */
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts a crash at `now`; returns how many fell within the window, this one included. */
  record(now: number): number {
    this.times = this.times.filter((t) => now - t < this.windowMs);
    this.times.push(now);
    return this.times.length;
  }

  /** True when the crashes within the window reached the limit. */
  exhausted(now: number): boolean {
    return this.times.filter((t) => now - t < this.windowMs).length >= this.limit;
  }

  /** A person asked to start again: earlier crashes no longer count. */
  reset(): void {
    this.times = [];
  }
}
