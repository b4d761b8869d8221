import cron from 'node-cron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSchedules } from '../helpers/modules.js';
import { DEFAULT_RETENTION, runCleanup } from '../../server/jobs/cleanup.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-22T03:17:00+09:00');

let t: TestApp;
const ids = (sql: string) => (t.deps.db.prepare(sql).all() as { id: string | number }[]).map((r) => String(r.id));

beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

function event(id: string, daysAgo: number, fannedOut: 0 | 1) {
  t.deps.db
    .prepare("INSERT INTO webhook_events (contract_id, event_id, event, body, fanned_out, created_at) VALUES (?, ?, 'pos:payment-method-groups', '{}', ?, ?)")
    .run(t.contractId, id, fannedOut, NOW - daysAgo * DAY);
}

function delivery(id: string, eventId: string, status: 'pending' | 'delivered' | 'dead', daysAgo: number) {
  const at = NOW - daysAgo * DAY;
  t.deps.db
    .prepare(
      `INSERT INTO webhook_deliveries (delivery_id, contract_id, event_id, subscription_id, url, status, delivered_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'https://example.test/hook', ?, ?, ?, ?)`,
    )
    .run(id, t.contractId, eventId, `sub-${id}`, status, status === 'delivered' ? at : null, at, at);
}

function deadLetter(status: 'open' | 'retried' | 'discarded', daysAgo: number): number {
  const at = NOW - daysAgo * DAY;
  return Number(
    t.deps.db
      .prepare(
        `INSERT INTO dead_letters (contract_id, node, direction, seq, entity, entity_id, op, hlc, reason, status, created_at, resolved_at)
         VALUES (?, 3, 'push', 1, 'category', '1003', 'insert', '0', 'why', ?, ?, ?) RETURNING dead_letter_id`,
      )
      .pluck()
      .get(t.contractId, status, at, status === 'open' ? null : at),
  );
}

describe('runCleanup', () => {
  it('removes finished records past their retention and keeps everything still open or recent', () => {
    // Webhooks: delivered 31 days ago goes, 29 days ago stays; dead 91 days ago goes (no longer
    // replayable), dead 89 days ago stays; pending stays however old.
    event('e-old', 40, 1);
    delivery('d-delivered-old', 'e-old', 'delivered', 31);
    event('e-recent', 29, 1);
    delivery('d-delivered-recent', 'e-recent', 'delivered', 29);
    event('e-dead', 100, 1);
    delivery('d-dead-old', 'e-dead', 'dead', 91);
    event('e-dead-recent', 100, 1);
    delivery('d-dead-recent', 'e-dead-recent', 'dead', 89);
    event('e-pending', 200, 1);
    delivery('d-pending', 'e-pending', 'pending', 200);
    // Not fanned out yet, or still in the outbox for central: kept however old.
    event('e-unfanned', 200, 0);
    event('e-in-outbox', 200, 1);
    t.deps.db
      .prepare("INSERT INTO outbox (node, contract_id, entity, entity_id, op, hlc, row, created_at) VALUES (1, ?, 'webhook_event', 'e-in-outbox', 'insert', '0', NULL, 0)")
      .run(t.contractId);
    const open = deadLetter('open', 400);
    const retriedOld = deadLetter('retried', 91);
    const discardedRecent = deadLetter('discarded', 10);
    t.deps.db
      .prepare("INSERT INTO sync_conflicts (contract_id, entity, entity_id, winner_hlc, loser_hlc, at) VALUES (?, 'category', '1', 'b', 'a', ?), (?, 'category', '2', 'b', 'a', ?)")
      .run(t.contractId, NOW - 181 * DAY, t.contractId, NOW - 179 * DAY);

    expect(runCleanup(t.deps, new Date(NOW))).toEqual({ webhookDeliveries: 2, webhookEvents: 2, deadLetters: 1, syncConflicts: 1, exportFiles: 0 });
    expect(ids('SELECT delivery_id AS id FROM webhook_deliveries ORDER BY 1')).toEqual(['d-dead-recent', 'd-delivered-recent', 'd-pending']);
    expect(ids('SELECT event_id AS id FROM webhook_events ORDER BY 1')).toEqual(['e-dead-recent', 'e-in-outbox', 'e-pending', 'e-recent', 'e-unfanned']);
    expect(ids('SELECT dead_letter_id AS id FROM dead_letters ORDER BY 1')).toEqual([String(open), String(discardedRecent)]);
    expect(ids('SELECT entity_id AS id FROM sync_conflicts')).toEqual(['2']);
    expect(retriedOld).toBeGreaterThan(0);

    // A second pass finds nothing more.
    expect(runCleanup(t.deps, new Date(NOW))).toEqual({ webhookDeliveries: 0, webhookEvents: 0, deadLetters: 0, syncConflicts: 0, exportFiles: 0 });
  });

  it('honours a shorter retention', () => {
    event('e', 2, 1);
    delivery('d', 'e', 'delivered', 2);
    expect(runCleanup(t.deps, new Date(NOW)).webhookDeliveries).toBe(0);
    expect(runCleanup(t.deps, new Date(NOW), { ...DEFAULT_RETENTION, deliveredWebhooksMs: DAY }).webhookDeliveries).toBe(1);
  });
});

describe('startSchedules', () => {
  it('runs the clean-up nightly beside the automatic closing, and stops every schedule', async () => {
    const named = (name: string) => [...cron.getTasks().values()].filter((task) => task.name === name);
    const before = { cleanup: named('cleanup').length, closing: named('auto-closing').length };
    const stop = startSchedules(t.deps, t.app.log);
    expect(named('cleanup').map((task) => task.getPattern()).at(-1)).toBe('17 3 * * *');
    expect(named('auto-closing').length).toBe(before.closing + 1);
    await stop();
    expect({ cleanup: named('cleanup').length, closing: named('auto-closing').length }).toEqual(before);
  });
});
