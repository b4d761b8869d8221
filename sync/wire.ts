import { z } from 'zod';
import type { SyncRecord } from './entities.js';

/**
 * The push / pull wire format between a store's agent (agent.ts, link-check.ts) and central's
 * routes (routes/central.ts), written once: central validates and documents with these schemas,
 * the agent takes its types from them and parses central's answers with them.
 */

/** Largest push body central takes; the agent's batches stay under it (agent.ts batchBytes). */
export const MAX_PUSH_BODY = 4 * 1024 * 1024;
export const MAX_PUSH_ITEMS = 1000;
export const MAX_PULL_LIMIT = 1000;

const item = z.object({
  seq: z.number().int().positive(),
  entity: z.string().max(64),
  id: z.string().max(128),
  op: z.enum(['insert', 'update', 'delete']),
  hlc: z.string().max(40),
  row: z.any(),
});

/** A pushed item carries its record as an object (`row`) or compact (`cells`, by the batch's `tables`). */
export const pushItem = item.extend({
  row: z.any().optional(),
  cells: z.object({ row: z.array(z.any()), children: z.record(z.string(), z.array(z.array(z.any()))).optional() }).optional(),
});

export const installation = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'must be 32 hex digits')
  .meta({ description: 'the pushing data dir’s installation id; a node number belongs to the first installation that pushed with it' });

export const pushBody = z.object({
  node: z.number().int().min(1).max(999),
  installation: installation.optional(),
  tables: z.record(z.string().max(64), z.array(z.string().max(64)).max(500)).optional(),
  items: z.array(pushItem).max(MAX_PUSH_ITEMS),
});

export const pushResponse = z.object({
  acked: z.number().int(),
  applied: z.number().int(),
  skipped: z.number().int(),
  deadLetters: z.array(z.object({ seq: z.number().int(), deadLetterId: z.number().int(), reason: z.string() })),
  hlc: z.string(),
  wallTime: z.number().int(),
});

export const pullQuery = z.object({
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PULL_LIMIT).default(500),
});

export const pullResponse = z.object({
  // `balance`: a member's new point and mile balances only (sync/balances.ts).
  items: z.array(item.extend({ op: z.enum(['insert', 'update', 'delete', 'balance']), origin: z.number().int() })),
  cursor: z.number().int(),
  more: z.boolean(),
  hlc: z.string(),
  wallTime: z.number().int(),
});

/** Central's answer to a link check (link-check.ts). */
export const linkResponse = z.object({
  contract: z.object({
    contractId: z.string(),
    name: z.string(),
    plan: z.string(),
    timeZone: z.string(),
    settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  }),
  node: z.number().int(),
  hlc: z.string(),
  wallTime: z.number().int(),
});

export type PushItem = z.infer<typeof pushItem>;
export type PushBody = z.infer<typeof pushBody>;
export type PushAnswer = z.infer<typeof pushResponse>;
type PullAnswerOnTheWire = z.infer<typeof pullResponse>;
/** A pulled item: its row is a record as entities.ts reads and writes it, or null for a delete. */
export type PulledItem = Omit<PullAnswerOnTheWire['items'][number], 'row'> & { row: SyncRecord | null };
export type PullAnswer = Omit<PullAnswerOnTheWire, 'items'> & { items: PulledItem[] };
export type LinkAnswer = z.infer<typeof linkResponse>;
