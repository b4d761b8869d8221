// The sync commands' work (sync/commands.ts parses their command lines); a refusal the operator
// can fix is a CommandError, whose one line the CLI prints.
import type { AppDeps, Role } from '../server/deps.js';
import { IdAllocator } from '../server/db/ids.js';
import { CentralSync, DeadLetters, NodeExistsError, NodeRepo, type DeadLetter } from './central.js';
import { syncContext } from './context.js';
import { LinkError, LinkRepo } from './link.js';
import { linkToCentral, type LinkInput } from './linking.js';
import { installSyncHooks } from './write-hooks.js';
import { retryDeadLetter, syncStatus } from './status.js';
import { CommandError } from '../server/cli/errors.js';

/** The role this data dir was last served as, if it was. */
export function recordedRole(deps: AppDeps): Role | undefined {
  return deps.db.prepare('SELECT role FROM sync_instance WHERE id = 1').pluck().get() as Role | undefined;
}

/**
 * Makes one-shot commands write as the server of this data dir does: its role, its node (a
 * linked store's node, central's 0) and the sync hooks, so a record a command makes is in the
 * outbox (store) or change log (central) like one made over HTTP. A data dir never served is a
 * store's (serve's default role): its records wait in the outbox, and if it is first served as
 * central instead, that start turns them into change-log entries (write-hooks.ts). A PostgreSQL
 * database (--database) never served is central's: the CLI opens it with that role.
 */
export function prepareCliDeps(deps: AppDeps): AppDeps {
  const role = recordedRole(deps) ?? deps.config.role;
  const node = role === 'central' ? 0 : (new LinkRepo(deps).node() ?? deps.ids.node);
  const prepared: AppDeps = { ...deps, ids: node === deps.ids.node ? deps.ids : new IdAllocator(deps.db, node), config: { ...deps.config, role, node } };
  installSyncHooks(prepared, { recordRole: false });
  return prepared;
}

/**
 * `serve` on a linked store uses the link's node (the id allocator's node must be the one central
 * knows it by); a different --node is refused.
 */
export function applyLinkedNode(deps: AppDeps, requested: number | undefined): void {
  if (deps.config.role !== 'store') return;
  const linked = new LinkRepo(deps).node();
  if (linked === undefined) return;
  if (requested !== undefined && requested !== linked) {
    throw new CommandError(`this data dir is linked to central as node ${linked}; serve it with --node ${linked} or without --node`);
  }
  if (deps.ids.node !== linked) {
    deps.ids = new IdAllocator(deps.db, linked);
    deps.config.node = linked;
  }
}

const contractExists = (deps: AppDeps, id: string) => deps.db.prepare('SELECT 1 FROM contracts WHERE contract_id = ?').get(id) !== undefined;

function requireContract(deps: AppDeps, id: string): void {
  if (!contractExists(deps, id)) throw new CommandError(`contract ${id} does not exist`);
}

function refuseRole(deps: AppDeps, wanted: Role, command: string, role = recordedRole(deps)): void {
  if (role && role !== wanted) throw new CommandError(`${command} runs on a ${wanted} data dir; this one is served as ${role}`);
}

export function nodeAdd(deps: AppDeps, contractId: string, node: number, name?: string) {
  refuseRole(deps, 'central', 'node add');
  requireContract(deps, contractId);
  const ctx = syncContext(deps);
  try {
    const added = new NodeRepo(ctx).add(contractId, node, name);
    new CentralSync(ctx).seed(contractId);
    return { ...added, note: 'the secret is shown only now; give it to the store: pos-backoffice link ... --secret' };
  } catch (error) {
    if (error instanceof NodeExistsError) throw new CommandError(error.message);
    throw error;
  }
}

export function nodeList(deps: AppDeps, contractId?: string) {
  return new NodeRepo(syncContext(deps)).list(contractId).map((n) => ({
    contractId: n.contract_id,
    node: n.node,
    name: n.name,
    revoked: n.revoked_at !== null,
    highWater: n.high_water,
    lastPushAt: n.last_push_at === null ? null : new Date(n.last_push_at).toISOString(),
    lastPullAt: n.last_pull_at === null ? null : new Date(n.last_pull_at).toISOString(),
  }));
}

export function nodeRevoke(deps: AppDeps, contractId: string, node: number) {
  if (!new NodeRepo(syncContext(deps)).revoke(contractId, node)) throw new CommandError(`node ${node} of contract ${contractId} does not exist or is already revoked`);
  return { contractId, node, revoked: true };
}

/** `pos-backoffice link` (sync/linking.ts): the refusal's one line, with what only the command line can do about it. */
export async function link(deps: AppDeps, input: LinkInput) {
  // Also a database never served that the CLI opened as central's (PostgreSQL, --database).
  refuseRole(deps, 'store', 'link', recordedRole(deps) ?? deps.config.role);
  try {
    return await linkToCentral(deps, input);
  } catch (error) {
    if (error instanceof LinkError) throw new CommandError(error.commandLine);
    throw error;
  }
}

export function unlink(deps: AppDeps, contractId: string) {
  if (!new LinkRepo(deps).unlink(contractId)) throw new CommandError(`contract ${contractId} is not linked`);
  return { contractId, linked: false };
}

export function status(deps: AppDeps, contractId?: string) {
  if (contractId !== undefined) {
    requireContract(deps, contractId);
    return [syncStatus(deps, contractId)];
  }
  const ids =
    deps.config.role === 'store'
      ? new LinkRepo(deps).all().map((l) => l.contractId)
      : (deps.db.prepare('SELECT contract_id FROM contracts ORDER BY contract_id').pluck().all() as string[]);
  return ids.map((id) => syncStatus(deps, id));
}

/** Lists a contract's dead letters, or retries or discards one. */
export function deadLetters(deps: AppDeps, contractId: string, action: { retry?: number; discard?: number }): DeadLetter[] {
  requireContract(deps, contractId);
  const id = action.retry ?? action.discard;
  if (id === undefined) return new DeadLetters(syncContext(deps)).list(contractId);
  const result = action.retry !== undefined ? retryDeadLetter(deps, contractId, id) : new DeadLetters(syncContext(deps)).discard(contractId, id);
  if (!result) throw new CommandError(`dead letter ${id} does not exist in contract ${contractId}`);
  return [result];
}
