import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../server/deps.js';
import { ContractRepo } from '../server/platform/contracts/repo.js';
import { DEFAULT_AGENT_OPTIONS } from './agent.js';
import { checkLink, contractDifference } from './link-check.js';
import { checkCentralUrl, LinkError, LinkRepo } from './link.js';
import { SKEW_WARNING_MS } from './status.js';

export interface LinkInput {
  central: string;
  contractId: string;
  node: number;
  secret: string;
  insecure: boolean;
  offline: boolean;
}

/** Work a caller does in the link's own write: `beforeSave` may refuse it, `afterSave` sees it saved. */
export interface LinkHooks {
  beforeSave?: () => void;
  afterSave?: () => void;
}

/**
 * Links a store's contract to central (DESIGN §5), for `pos-backoffice link` and the setup
 * screen alike: checked with central before anything is saved (credentials, installation,
 * contract, clock), the contract taken from central where this data dir lacks it. `offline`
 * saves it unchecked for a store set up while the line is down; its first push checks it then.
 * Throws LinkError naming the value at fault.
 */
export async function linkToCentral(deps: AppDeps, input: LinkInput, hooks: LinkHooks = {}) {
  const links = new LinkRepo(deps);
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  const centralUrl = checkCentralUrl(input.central, input.insecure);
  links.assertNodeFits(input.contractId, input.node);
  const saved = { contractId: input.contractId, central: centralUrl, node: input.node, linked: true };
  if (input.offline) {
    if (!contracts.find(input.contractId)) throw new LinkError(`contract ${input.contractId} does not exist`, 'contractId');
    links.link({ contractId: input.contractId, centralUrl, node: input.node, secret: input.secret }, hooks.beforeSave);
    hooks.afterSave?.();
    return { ...saved, checked: false as const, note: `saved unchecked (--offline): the first push checks it; serve this data dir as node ${input.node}` };
  }
  const installationId = links.knownInstallationId() ?? randomBytes(16).toString('hex');
  const address = { centralUrl, contractId: input.contractId, node: input.node, secret: input.secret };
  const checked = await checkLink(address, installationId, DEFAULT_AGENT_OPTIONS.timeoutMs, () => deps.clock.now().getTime());
  const local = contracts.find(input.contractId);
  const difference = local && contractDifference(local, checked.contract);
  if (difference) throw new LinkError(difference);
  links.link({ contractId: input.contractId, centralUrl, node: input.node, secret: input.secret, installationId }, () => {
    hooks.beforeSave?.();
    if (!local) contracts.create(checked.contract);
  });
  hooks.afterSave?.();
  const { contractId, name, plan, timeZone } = checked.contract;
  return {
    ...saved,
    checked: true as const,
    contract: { contractId, name, plan, timeZone },
    contractCreated: !local,
    clockSkewMs: checked.clockSkewMs,
    ...(Math.abs(checked.clockSkewMs) > SKEW_WARNING_MS ? { warning: `this PC's clock is ${Math.round(Math.abs(checked.clockSkewMs) / 1000)} s ${checked.clockSkewMs > 0 ? 'behind' : 'ahead of'} central's; set the time before selling` } : {}),
    note: `serve this data dir as node ${input.node}`,
  };
}
