import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../server/deps.js';
import { dialectOf } from '../server/db/engine.js';
// The one address classifier, which head office's webhook receiver rule reads too.
import { isLocalHost } from '../server/platform/http/addresses.js';

/** A store's link of one contract to central. */
export interface Link {
  contractId: string;
  centralUrl: string;
  node: number;
  secret: string;
  linkedAt: number;
  pullCursor: number;
  lastPushAt: number | null;
  lastPullAt: number | null;
  /** When a pull last found nothing more at central: the first one ends the link's first pull. */
  caughtUpAt: number | null;
  lastAttemptAt: number | null;
  lastError: string | null;
  online: boolean;
  clockSkewMs: number | null;
  centralDeadLetters: number;
}

interface LinkRow {
  contract_id: string;
  central_url: string;
  node: number;
  secret: string;
  linked_at: number;
  pull_cursor: number;
  last_push_at: number | null;
  last_pull_at: number | null;
  caught_up_at: number | null;
  last_attempt_at: number | null;
  last_error: string | null;
  online: number;
  clock_skew_ms: number | null;
  central_dead_letters: number;
}

const present = (r: LinkRow): Link => ({
  contractId: r.contract_id,
  centralUrl: r.central_url,
  node: r.node,
  secret: r.secret,
  linkedAt: r.linked_at,
  pullCursor: r.pull_cursor,
  lastPushAt: r.last_push_at,
  lastPullAt: r.last_pull_at,
  caughtUpAt: r.caught_up_at,
  lastAttemptAt: r.last_attempt_at,
  lastError: r.last_error,
  online: r.online === 1,
  clockSkewMs: r.clock_skew_ms,
  centralDeadLetters: r.central_dead_letters,
});

/** What a link names that the operator may have got wrong: the setup screen shows the reason on its field. */
export type LinkField = 'centralUrl' | 'contractId' | 'node' | 'secret';

/**
 * A link refused for a reason the operator can act on. `field` names the value at fault (the
 * setup API's field, the CLI's --central/--contract/--node/--secret); `advice` is what only the
 * command line can do about it (`--offline`), added to the CLI's line and left off the screen's.
 */
export class LinkError extends Error {
  constructor(
    message: string,
    readonly field?: LinkField,
    readonly advice?: string,
  ) {
    super(message);
  }

  /** The one line `pos-backoffice link` prints. */
  get commandLine(): string {
    return this.advice ? `${this.message}, or ${this.advice}` : this.message;
  }
}

const newInstallationId = () => randomBytes(16).toString('hex');

/**
 * Plain http is refused unless central is on this machine or the private LAN (loopback,
 * 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10, `localhost`): the node secret and
 * the sales would otherwise cross the internet in clear text. `insecure` allows it anyway.
 */
export function checkCentralUrl(text: string, insecure = false): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new LinkError(`--central "${text}" is not a URL`, 'centralUrl');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new LinkError(`--central must be an http(s) URL, got "${url.protocol}"`, 'centralUrl');
  if (url.username || url.password || url.search || url.hash) throw new LinkError('--central must not carry credentials, a query or a fragment', 'centralUrl');
  if (url.protocol === 'http:' && !insecure && !isLocalHost(url.hostname)) {
    throw new LinkError(`--central ${url.origin} is plain http to a public address; use https, or --insecure to allow it`, 'centralUrl');
  }
  return url.href.replace(/\/+$/, '');
}

export class LinkRepo {
  constructor(private readonly deps: AppDeps) {}

  get(contractId: string): Link | undefined {
    const row = this.deps.db.prepare('SELECT * FROM sync_links WHERE contract_id = ?').get(contractId) as LinkRow | undefined;
    return row && present(row);
  }

  all(): Link[] {
    return (this.deps.db.prepare('SELECT * FROM sync_links ORDER BY contract_id').all() as LinkRow[]).map(present);
  }

  /**
   * This data dir's installation id, made at the first link and kept through unlink and relink:
   * central ties a node number to it (0022_sync_installation.sql).
   */
  installationId(proposed?: string): string {
    const { db, writer, clock } = this.deps;
    return (
      this.knownInstallationId() ??
      writer.write(() => {
        db.prepare(dialectOf(db).insertOrIgnore('sync_installation', ['singleton', 'installation_id', 'created_at'], ['1', '?', '?'])).run(proposed ?? newInstallationId(), clock.now().getTime());
        return this.knownInstallationId()!;
      })
    );
  }

  /** The installation id if this data dir has one yet (`link` shows central the one it will save). */
  knownInstallationId(): string | undefined {
    return this.deps.db.prepare('SELECT installation_id FROM sync_installation').pluck().get() as string | undefined;
  }

  /** The node number every link of this data dir uses (they agree), or undefined when unlinked. */
  node(): number | undefined {
    return this.deps.db.prepare('SELECT node FROM sync_links LIMIT 1').pluck().get() as number | undefined;
  }

  /**
   * Links a contract. The node must be the one every other link and every record already in the
   * outbox was made with (ids carry it, DESIGN §4). A relink starts the pull cursor from 0.
   */
  link(input: { contractId: string; centralUrl: string; node: number; secret: string; installationId?: string }, before?: () => void): Link {
    const { db, writer, clock } = this.deps;
    return writer.write(() => {
      this.assertNodeFits(input.contractId, input.node);
      before?.();
      db.prepare(
        `INSERT INTO sync_links (contract_id, central_url, node, secret, linked_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (contract_id) DO UPDATE SET central_url = excluded.central_url, node = excluded.node, secret = excluded.secret,
           linked_at = excluded.linked_at, pull_cursor = 0, last_error = NULL, online = 0, central_dead_letters = 0, caught_up_at = NULL`,
      ).run(input.contractId, input.centralUrl, input.node, input.secret, clock.now().getTime());
      this.installationId(input.installationId);
      return this.get(input.contractId)!;
    });
  }

  /** Refuses a node other than the one this data dir's other links and waiting records were made with. */
  assertNodeFits(contractId: string, node: number): void {
    const { db } = this.deps;
    const other = db.prepare('SELECT node FROM sync_links WHERE contract_id != ? AND node != ? LIMIT 1').pluck().get(contractId, node) as number | undefined;
    if (other !== undefined) throw new LinkError(`this data dir is linked as node ${other}; every contract of it must use the same node`, 'node');
    const made = db.prepare('SELECT DISTINCT node FROM outbox WHERE node != ? LIMIT 1').pluck().get(node) as number | undefined;
    if (made !== undefined) throw new LinkError(`records waiting to be pushed were made as node ${made}, not ${node}`, 'node');
  }

  /**
   * Returns false when the contract was not linked. The outbox is kept (a later link pushes it),
   * except the webhook events not yet handed to central: an unlinked store delivers its own, so
   * they go back to this store's worker.
   */
  unlink(contractId: string): boolean {
    const { db } = this.deps;
    return this.deps.writer.write(() => {
      const unlinked = db.prepare('DELETE FROM sync_links WHERE contract_id = ?').run(contractId).changes === 1;
      db.prepare(
        `UPDATE webhook_events SET fanned_out = 0
         WHERE contract_id = ? AND event_id IN (SELECT entity_id FROM outbox WHERE contract_id = ? AND entity = 'webhook_event')`,
      ).run(contractId, contractId);
      db.prepare("DELETE FROM outbox WHERE contract_id = ? AND entity = 'webhook_event'").run(contractId);
      return unlinked;
    });
  }

  update(
    contractId: string,
    values: Partial<Record<'last_push_at' | 'last_pull_at' | 'last_attempt_at' | 'pull_cursor' | 'online' | 'clock_skew_ms' | 'caught_up_at', number | null> & { last_error: string | null }>,
    addDeadLetters = 0,
  ): void {
    const names = Object.keys(values);
    const set = [...names.map((n) => `${n} = @${n}`), 'central_dead_letters = central_dead_letters + @addDeadLetters'].join(', ');
    this.deps.db.prepare(`UPDATE sync_links SET ${set} WHERE contract_id = @contractId`).run({ ...values, addDeadLetters, contractId });
  }
}
