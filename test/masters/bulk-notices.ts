import type { TestApp } from '../helpers/app.js';

/** A bulk request's notice to its callbackUrl, as the webhook outbox holds it. */
export interface BulkNotice {
  event: string;
  action: string;
  body: string;
  target_url: string;
}

/** The notices of `event` (pos:products, pos:customers), oldest first. */
export const bulkNotices = (t: TestApp, event: string) =>
  t.deps.db.prepare('SELECT event, action, body, target_url FROM webhook_events WHERE event = ? ORDER BY created_at, event_id').all(event) as BulkNotice[];

/**
 * Waits for the bulk request's work after its answer (setImmediate) to commit its `count`th
 * notice of `event`, and answers that notice's body (bounded: 200 looks, 5 ms apart).
 */
export async function settleBulk(t: TestApp, event: string, count = 1): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const notices = bulkNotices(t, event);
    if (notices.length >= count) return JSON.parse(notices[count - 1]!.body);
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the bulk request never finished');
}
