import type { AppDeps } from '../server/deps.js';
import { BadRequest } from '../server/platform/http/problem.js';
import type { HeadOfficeLink } from '../server/platform/setup/head-office.js';
import { syncContext } from './context.js';
import { LinkError, LinkRepo } from './link.js';
import { linkToCentral } from './linking.js';

/**
 * The setup screen's head-office way (issue 21), plugged in by server/app.ts: the link `link`
 * makes (sync/linking.ts), and this running server switched to the linked node at once.
 */
export function headOfficeLink(deps: AppDeps): HeadOfficeLink {
  const links = new LinkRepo(deps);
  return {
    async link(input, beforeSave) {
      try {
        const linked = await linkToCentral(
          deps,
          { central: input.centralUrl, contractId: input.contractId, node: input.node, secret: input.secret, insecure: input.insecure, offline: false },
          // In the same turn as the save: no request can mint an id in between.
          { beforeSave, afterSave: () => adoptNode(deps, input.node) },
        );
        if (!linked.checked) throw new Error('the setup link is always checked with central');
        return { contract: linked.contract, node: linked.node, clockSkewMs: linked.clockSkewMs, ...(linked.warning ? { warning: linked.warning } : {}) };
      } catch (error) {
        if (error instanceof LinkError) throw error.field ? BadRequest.field(error.field, error.message) : new BadRequest(error.message);
        throw error;
      }
    },
    progress() {
      const [link] = links.all();
      if (!link) return undefined;
      const { contractId, centralUrl, node, online, lastPullAt, caughtUpAt, lastError } = link;
      return { contractId, centralUrl, node, online, lastPullAt, caughtUp: caughtUpAt !== null, lastError };
    },
  };
}

/**
 * A served store starts as node 1 (serve without --node); `serve` on a linked data dir takes the
 * link's node (cli.ts applyLinkedNode). Linked from the screen, the server already runs: its id
 * allocator, clock and outbox take the node now. Setup links only a data dir without a contract,
 * so nothing was minted or queued with the old node.
 */
function adoptNode(deps: AppDeps, node: number): void {
  if (deps.ids.node === node) return;
  const ctx = syncContext(deps);
  deps.ids.renumber(node);
  deps.config.node = node;
  ctx.hlc.renumber(node);
  ctx.node = node;
}
