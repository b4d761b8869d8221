-- When a store's pull last found nothing more at central (issue 21): the first time ends the
-- link's first pull, which the setup screen waits for before it sends the staff to the login.
-- A relink clears it (its pull starts again from cursor 0).
ALTER TABLE sync_links ADD COLUMN caught_up_at INTEGER;
