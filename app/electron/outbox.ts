// How much this store has not yet sent to head office, asked of the server's own CLI
// (`sync status`, sync/cli.ts): one JSON line per contract linked to central. The HTTP route
// needs a contract's token, which the shell does not hold; the CLI reads the same SQLite file
// (WAL lets it read while the server writes).
import { runOnce, type Spawner } from './server-process.js';

export interface OutboxSummary {
  /** Records waiting to be pushed, summed over the linked contracts. */
  depth: number;
  /** Age of the oldest of them, or null when none waits. */
  oldestAgeMs: number | null;
  /** Contracts linked to central (an unlinked store has nothing to push). */
  linkedContracts: number;
  /** Whether every linked contract reached central at its last attempt; null when none is linked. */
  online: boolean | null;
}

/** Sums `sync status` lines; null when the output is not what the command prints. */
export function summarizeSyncStatus(stdout: string): OutboxSummary | null {
  const summary: OutboxSummary = { depth: 0, oldestAgeMs: null, linkedContracts: 0, online: null };
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    let status: Record<string, unknown>;
    try {
      status = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return null;
    }
    // Central has no outbox; a store line without the numbers is not one we understand.
    if (status.role !== 'store') continue;
    if (typeof status.outboxDepth !== 'number') return null;
    summary.linkedContracts += 1;
    summary.depth += status.outboxDepth;
    const age = status.outboxOldestAgeMs;
    if (typeof age === 'number') summary.oldestAgeMs = Math.max(summary.oldestAgeMs ?? 0, age);
    summary.online = (summary.online ?? true) && status.online === true;
  }
  return summary;
}

/** The outbox of the data dir, or null when it cannot be told (the command failed or hung). */
export async function readOutbox(spawn: Spawner, dataDir: string, timeoutMs = 15_000): Promise<OutboxSummary | null> {
  const result = await runOnce(spawn, ['sync', 'status', '--data-dir', dataDir], timeoutMs);
  if (result.timedOut || result.code !== 0) return null;
  return summarizeSyncStatus(result.stdout);
}
