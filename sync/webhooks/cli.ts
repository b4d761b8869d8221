import type { AppDeps } from '../../server/deps.js';
import { AddressAllowList } from '../../server/platform/http/addresses.js';
import { assertReceiver } from '../../server/platform/http/receivers.js';
import { BadRequest, ProblemError } from '../../server/platform/http/problem.js';
import { isHttpUrl, isWebhookEvent, WEBHOOK_EVENTS, type WebhookEventName } from '../../server/events/webhook-events.js';
import { CommandError, UsageError } from '../../server/cli/errors.js';
import { contractOption } from '../../server/cli/options.js';
import { defineCommand, type CliCommand, type Io } from '../../server/modules.js';
import { DeliveryRepo } from './deliveries.js';
import { presentDelivery, presentSubscription } from './schema.js';
import { SubscriptionRepo } from './subscriptions.js';

/**
 * `webhook add` at head office: the receiver rule of the API (server/platform/http/receivers.ts), with the
 * operator's allow-list from POS_WEBHOOK_ALLOW (the command does not see serve's flags).
 */
export async function checkCommandReceiver(deps: AppDeps, url: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let allow = deps.config.receivers.allow;
  try {
    if (env.POS_WEBHOOK_ALLOW?.trim()) allow = [...AddressAllowList.parse(env.POS_WEBHOOK_ALLOW).entries];
  } catch (error) {
    throw new BadRequest(`POS_WEBHOOK_ALLOW: ${(error as Error).message}`);
  }
  await assertReceiver({ ...deps.config, receivers: { ...deps.config.receivers, allow } }, url, 'url');
}

const contract = { contract: { type: 'string' } } as const;
const zone = 'UTC';

/** Refusals of the repos (ProblemError, as the API answers them) are the command's one-line reason. */
async function onContract(deps: AppDeps, contractId: string, io: Io, fn: () => unknown): Promise<void> {
  if (deps.db.prepare('SELECT 1 FROM contracts WHERE contract_id = ?').get(contractId) === undefined) {
    throw new CommandError(`contract ${contractId} does not exist`);
  }
  try {
    io.out(JSON.stringify(await fn()));
  } catch (error) {
    throw error instanceof ProblemError ? new CommandError(error.message) : error;
  }
}

const needId = (what: string, id: string | undefined) => {
  if (!id || !/^\d{1,12}$/.test(id)) throw new UsageError(`--id must be the ${what} id (digits), got "${id ?? ''}"`);
  return id;
};

/** `pos-backoffice webhook ...`: the same repos as the API; times in UTC. add prints the secret. */
export const WEBHOOK_COMMANDS: readonly CliCommand[] = [
  defineCommand({
    name: 'webhook add',
    usage: 'webhook add --contract ID --url URL --events LIST   (prints the signing secret whsec_...)',
    options: { ...contract, url: { type: 'string' }, events: { type: 'string' } },
    parse(v) {
      const contractId = contractOption(v.contract, '--contract');
      if (!v.url) throw new UsageError('--url is required');
      if (!isHttpUrl(v.url)) throw new UsageError(`--url must be an http:// or https:// URL, got "${v.url}"`);
      const names = [...new Set((v.events ?? '').split(/[\s,]+/).filter(Boolean))];
      if (!names.length) throw new UsageError(`--events is required: ${WEBHOOK_EVENTS.join(', ')}`);
      const unknown = names.filter((n) => !isWebhookEvent(n));
      if (unknown.length) throw new UsageError(`--events: unknown event ${unknown.join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`);
      return { contract: contractId, url: v.url, events: names as WebhookEventName[] };
    },
    run: (deps, c, io) =>
      onContract(deps, c.contract, io, async () => {
        await checkCommandReceiver(deps, c.url);
        return presentSubscription(new SubscriptionRepo(deps).create(c.contract, { url: c.url, events: c.events }), zone, true);
      }),
  }),
  defineCommand({
    name: 'webhook list',
    usage: 'webhook list --contract ID',
    options: contract,
    parse: (v) => ({ contract: contractOption(v.contract, '--contract') }),
    run: (deps, c, io) => onContract(deps, c.contract, io, () => new SubscriptionRepo(deps).list(c.contract).map((s) => presentSubscription(s, zone, false))),
  }),
  defineCommand({
    name: 'webhook remove',
    usage: 'webhook remove --contract ID --id SUBSCRIPTION_ID',
    options: { ...contract, id: { type: 'string' } },
    parse: (v) => ({ contract: contractOption(v.contract, '--contract'), id: needId('subscription', v.id) }),
    run: (deps, c, io) =>
      onContract(deps, c.contract, io, () => {
        new SubscriptionRepo(deps).remove(c.contract, c.id);
        return { removed: c.id };
      }),
  }),
  defineCommand({
    name: 'webhook deliveries',
    usage: 'webhook deliveries --contract ID [--status pending|delivered|dead]',
    options: { ...contract, status: { type: 'string' } },
    parse(v) {
      const contractId = contractOption(v.contract, '--contract');
      const status = v.status;
      if (status !== undefined && status !== 'pending' && status !== 'delivered' && status !== 'dead') {
        throw new UsageError(`--status must be pending, delivered or dead, got "${status}"`);
      }
      return { contract: contractId, ...(status ? { status } : {}) } as { contract: string; status?: 'pending' | 'delivered' | 'dead' };
    },
    run: (deps, c, io) =>
      onContract(deps, c.contract, io, () =>
        new DeliveryRepo(deps)
          .list(c.contract, c.status ? { status: c.status } : {}, { limit: 1000, page: 1 })
          .slice(0, 1000)
          .map((d) => presentDelivery(d, zone)),
      ),
  }),
  defineCommand({
    name: 'webhook replay',
    usage: 'webhook replay --contract ID --id DELIVERY_ID',
    options: { ...contract, id: { type: 'string' } },
    parse: (v) => ({ contract: contractOption(v.contract, '--contract'), id: needId('delivery', v.id) }),
    run: (deps, c, io) => onContract(deps, c.contract, io, () => presentDelivery(new DeliveryRepo(deps).replay(c.contract, c.id), zone)),
  }),
];

/** What --events takes, printed under the commands by --help. */
export const WEBHOOK_USAGE_NOTES = [`EVENTS (comma separated): ${WEBHOOK_EVENTS.join(',')}`];
