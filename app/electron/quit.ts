// Quitting: records not yet pushed to head office are safe in the SQLite outbox and go out on
// the next start, but head office will not see them until then, so staff are asked first.
import type { OutboxSummary } from './outbox.js';

export type QuitQuestion = { ask: false } | { ask: true; depth: number; oldestAgeMs: number | null };

/**
 * Ask when the outbox holds anything. When its depth cannot be told (the status command failed)
 * the app quits without asking: nothing is lost by quitting, and a broken check must never keep
 * staff from closing the app.
 */
export function quitDecision(outbox: OutboxSummary | null): QuitQuestion {
  if (outbox === null || outbox.depth <= 0) return { ask: false };
  return { ask: true, depth: outbox.depth, oldestAgeMs: outbox.oldestAgeMs };
}

export interface QuitFlowDeps {
  serverRunning(): boolean;
  readOutbox(): Promise<OutboxSummary | null>;
  /** Shows the question; true when the user chose to quit anyway. */
  confirm(question: { depth: number; oldestAgeMs: number | null }): Promise<boolean>;
  stopServer(): Promise<unknown>;
}

export type QuitOutcome = 'quit' | 'cancelled';

export interface QuitFlow {
  /** Checks, asks if needed, stops the server; concurrent requests share one run. */
  request(): Promise<QuitOutcome>;
  /** True from the moment the server is being stopped (its exit is then expected). */
  readonly closing: boolean;
  /** True once the server is stopped and the app may really quit. */
  readonly done: boolean;
}

export function createQuitFlow(deps: QuitFlowDeps): QuitFlow {
  let done = false;
  let closing = false;
  let inflight: Promise<QuitOutcome> | null = null;

  const run = async (): Promise<QuitOutcome> => {
    if (deps.serverRunning()) {
      const outbox = await deps.readOutbox().catch(() => null);
      const question = quitDecision(outbox);
      if (question.ask && !(await deps.confirm(question))) return 'cancelled';
      closing = true;
      // A failed stop still quits: the server process ends with the app at the latest.
      await deps.stopServer().catch(() => undefined);
    }
    done = true;
    return 'quit';
  };

  return {
    request() {
      if (done) return Promise.resolve('quit');
      inflight ??= run().finally(() => {
        inflight = null;
      });
      return inflight;
    },
    get closing() {
      return closing;
    },
    get done() {
      return done;
    },
  };
}
