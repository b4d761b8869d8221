import { DEFAULT_SETTINGS, type Contract, type ContractSettings } from '../server/platform/contracts/repo.js';
import { isPlan } from '../server/domain/plans.js';
import { callCentral, clockSkew, problemDetail, type CentralAddress } from './central-client.js';
import { LinkError, type LinkField } from './link.js';
import { linkResponse } from './wire.js';

/** What central says of a link it accepts: its contract, and how far its clock is from ours. */
export interface LinkCheck {
  contract: Contract;
  clockSkewMs: number;
}

/**
 * Asks central whether this node may link (DESIGN §5 "Link checks with central before it saves"):
 * one authenticated request, with the agent's timeout and rules. Throws LinkError with a one-line
 * reason the operator can act on; nothing is written here.
 */
export async function checkLink(to: CentralAddress, installationId: string, timeoutMs: number, now: () => number): Promise<LinkCheck> {
  const sentAt = now();
  let answer;
  try {
    answer = await callCentral(to, 'GET', `link?installation=${installationId}`, timeoutMs);
  } catch (error) {
    throw new LinkError(`central ${to.centralUrl} cannot be reached (${(error as Error).message}); check the address`, 'centralUrl', 'link with --offline to save the link unchecked');
  }
  if (answer.statusCode !== 200) {
    const detail = problemDetail(answer);
    if (answer.statusCode === 404 && !detail.includes(to.contractId)) {
      throw new LinkError(`${to.centralUrl} answered 404 to the link check: it is not a pos-backoffice central (or an older one); check --central`, 'centralUrl');
    }
    throw new LinkError(`central refused the link (${answer.statusCode}): ${detail}`, refusedField(answer.statusCode, detail));
  }
  let body;
  try {
    body = linkResponse.parse(JSON.parse(answer.body));
  } catch {
    throw new LinkError(`${to.centralUrl} answered the link check with something other than a pos-backoffice central's answer; check --central`, 'centralUrl');
  }
  const { contract } = body;
  if (!isPlan(contract.plan)) throw new LinkError(`central's contract ${contract.contractId} has plan "${contract.plan}", which this version does not know; upgrade this store first`);
  return {
    contract: { contractId: contract.contractId, name: contract.name, plan: contract.plan, timeZone: contract.timeZone, settings: knownSettings(contract.settings) },
    clockSkewMs: clockSkew(body.wallTime, sentAt, now()),
  };
}

/**
 * Which of the store's values central's refusal is about, read from central's words
 * (sync/routes/central.ts: every credential failure is a 401 whose detail says which; a node
 * another installation pushes with is a 409). Undefined for anything else.
 */
function refusedField(status: number, detail: string): LinkField | undefined {
  if (status === 409) return 'node';
  if (status !== 401) return undefined;
  if (/^contract \S+ does not exist at central/.test(detail)) return 'contractId';
  if (/^the secret does not match/.test(detail)) return 'secret';
  if (/^node \d+ of contract \S+ (is not registered|was revoked)/.test(detail)) return 'node';
  return undefined;
}

/** Central's settings this version knows, each of the type it expects (a newer central may send more). */
function knownSettings(sent: Record<string, unknown>): ContractSettings {
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const [key, fallback] of Object.entries(DEFAULT_SETTINGS)) {
    if (typeof sent[key] === typeof fallback) settings[key] = sent[key];
  }
  return settings as unknown as ContractSettings;
}

/**
 * The store's copy of a contract must be central's in what decides the rules for every record it
 * makes: the plan (which endpoints and limits apply) and the time zone (which business day a
 * sale falls on). Returns the one-line difference, or undefined when they agree.
 */
export function contractDifference(local: Contract, central: Contract): string | undefined {
  const differences = [
    local.plan !== central.plan ? `plan ${local.plan} here, ${central.plan} at central` : undefined,
    local.timeZone !== central.timeZone ? `time zone ${local.timeZone} here, ${central.timeZone} at central` : undefined,
  ].filter(Boolean);
  if (differences.length === 0) return undefined;
  return `contract ${local.contractId} differs from central's: ${differences.join('; ')}; link from a fresh data dir, which takes central's contract (or change this plan with pos-backoffice contract set-plan)`;
}
