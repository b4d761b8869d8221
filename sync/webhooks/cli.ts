import type { AppDeps } from '../../server/deps.js';
import { AddressAllowList } from '../../server/platform/http/addresses.js';
import { assertReceiver } from '../../server/platform/http/receivers.js';
import { BadRequest } from '../../server/platform/http/problem.js';
import type { Command } from '../../server/cli/args.js';
import { DeliveryRepo } from './deliveries.js';
import { presentDelivery, presentSubscription } from './schema.js';
import { SubscriptionRepo } from './subscriptions.js';

type WebhookCommand = Extract<Command, { name: `webhook ${string}` }>;

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

/** `pos-backoffice webhook ...`: the same repos as the API; times in UTC. add prints the secret. */
export function runWebhookCommand(deps: AppDeps, command: WebhookCommand): unknown {
  const subscriptions = new SubscriptionRepo(deps);
  const deliveries = new DeliveryRepo(deps);
  const zone = 'UTC';
  switch (command.name) {
    case 'webhook add':
      return presentSubscription(subscriptions.create(command.contract, { url: command.url, events: command.events }), zone, true);
    case 'webhook list':
      return subscriptions.list(command.contract).map((s) => presentSubscription(s, zone, false));
    case 'webhook remove':
      subscriptions.remove(command.contract, command.id);
      return { removed: command.id };
    case 'webhook deliveries':
      return deliveries
        .list(command.contract, command.status ? { status: command.status } : {}, { limit: 1000, page: 1 })
        .slice(0, 1000)
        .map((d) => presentDelivery(d, zone));
    case 'webhook replay':
      return presentDelivery(deliveries.replay(command.contract, command.id), zone);
  }
}
