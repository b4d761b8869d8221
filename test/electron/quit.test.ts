import { describe, expect, it } from 'vitest';
import { summarizeSyncStatus, type OutboxSummary } from '../../app/electron/outbox.js';
import { createQuitFlow, quitDecision } from '../../app/electron/quit.js';

const store = (contractId: string, outboxDepth: number, outboxOldestAgeMs: number | null, online = false) =>
  JSON.stringify({ role: 'store', contractId, linked: true, online, outboxDepth, outboxOldestAgeMs, deadLetters: 0 });

describe('quit guard', () => {
  it('asks only when records wait in the outbox', () => {
    expect(quitDecision({ depth: 0, oldestAgeMs: null, linkedContracts: 1, online: true })).toEqual({ ask: false });
    expect(quitDecision({ depth: 3, oldestAgeMs: 60_000, linkedContracts: 1, online: false })).toEqual({ ask: true, depth: 3, oldestAgeMs: 60_000 });
  });

  it('does not ask when the depth cannot be told', () => {
    expect(quitDecision(null)).toEqual({ ask: false });
  });
});

describe('outbox depth from `sync status`', () => {
  it('sums the linked contracts and keeps the oldest age', () => {
    const out = `${store('a', 2, 5_000)}\n${store('b', 0, null)}\n${store('c', 4, 90_000)}\n`;
    expect(summarizeSyncStatus(out)).toEqual({ depth: 6, oldestAgeMs: 90_000, linkedContracts: 3, online: false });
  });

  it('is online only while every linked contract reached central', () => {
    expect(summarizeSyncStatus(`${store('a', 0, null, true)}\n${store('b', 1, 1_000, true)}\n`)?.online).toBe(true);
    expect(summarizeSyncStatus(`${store('a', 0, null, true)}\n${store('b', 1, 1_000, false)}\n`)?.online).toBe(false);
  });

  it('is zero for a store linked to nothing (no lines)', () => {
    expect(summarizeSyncStatus('')).toEqual({ depth: 0, oldestAgeMs: null, linkedContracts: 0, online: null });
  });

  it('ignores central lines and refuses output it does not understand', () => {
    expect(summarizeSyncStatus(JSON.stringify({ role: 'central', contractId: 'a', nodes: [] }))).toEqual({ depth: 0, oldestAgeMs: null, linkedContracts: 0, online: null });
    expect(summarizeSyncStatus('pos-backoffice: something went wrong')).toBeNull();
    expect(summarizeSyncStatus(JSON.stringify({ role: 'store', contractId: 'a' }))).toBeNull();
  });
});

function flow(opts: { running?: boolean; outbox?: OutboxSummary | null | Error; answer?: boolean }) {
  const calls: string[] = [];
  const quit = createQuitFlow({
    serverRunning: () => opts.running ?? true,
    readOutbox: async () => {
      calls.push('read');
      if (opts.outbox instanceof Error) throw opts.outbox;
      return opts.outbox ?? null;
    },
    confirm: async (q) => {
      calls.push(`ask ${q.depth}`);
      return opts.answer ?? true;
    },
    stopServer: async () => {
      calls.push(`stop closing=${quit.closing}`);
    },
  });
  return { quit, calls };
}

describe('quit flow', () => {
  it('stops the server without asking when the outbox is empty', async () => {
    const { quit, calls } = flow({ outbox: { depth: 0, oldestAgeMs: null, linkedContracts: 1, online: true } });
    expect(await quit.request()).toBe('quit');
    expect(calls).toEqual(['read', 'stop closing=true']);
    expect(quit.done).toBe(true);
  });

  it('asks with a waiting outbox; cancelling keeps the server running', async () => {
    const { quit, calls } = flow({ outbox: { depth: 5, oldestAgeMs: 1_000, linkedContracts: 1, online: false }, answer: false });
    expect(await quit.request()).toBe('cancelled');
    expect(calls).toEqual(['read', 'ask 5']);
    expect(quit.done).toBe(false);
    expect(quit.closing).toBe(false);
  });

  it('asks with a waiting outbox; confirming stops the server and quits', async () => {
    const { quit, calls } = flow({ outbox: { depth: 5, oldestAgeMs: 1_000, linkedContracts: 1, online: false }, answer: true });
    expect(await quit.request()).toBe('quit');
    expect(calls).toEqual(['read', 'ask 5', 'stop closing=true']);
    expect(await quit.request()).toBe('quit'); // the second before-quit passes through
    expect(calls).toHaveLength(3);
  });

  it('quits when the status check fails, and at once when no server runs', async () => {
    const failing = flow({ outbox: new Error('spawn failed') });
    expect(await failing.quit.request()).toBe('quit');
    expect(failing.calls).toEqual(['read', 'stop closing=true']);
    const stopped = flow({ running: false });
    expect(await stopped.quit.request()).toBe('quit');
    expect(stopped.calls).toEqual([]);
  });

  it('runs once for concurrent requests (window close and Ctrl+Q together)', async () => {
    const { quit, calls } = flow({ outbox: { depth: 1, oldestAgeMs: null, linkedContracts: 1, online: false } });
    const [a, b] = await Promise.all([quit.request(), quit.request()]);
    expect([a, b]).toEqual(['quit', 'quit']);
    expect(calls).toEqual(['read', 'ask 1', 'stop closing=true']);
  });
});
