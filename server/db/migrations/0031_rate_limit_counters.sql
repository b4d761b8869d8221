-- Request counts of the rate limits (issue 25) when several central processes share one
-- database (serve --rate-limit-shared, server/http/rate-store.ts): one row per key (a
-- contract's reads, its writes, a store node's sync requests), the start of its current window
-- and the requests counted in it. A process alone counts in memory and leaves this empty.
-- Bookkeeping, not business data: not synced, never in the outbox.
CREATE TABLE rate_limit_counters (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  hits INTEGER NOT NULL
) STRICT;
