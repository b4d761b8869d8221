import type { AppDeps } from '../../server/deps.js';
import type { Command } from '../../server/cli/args.js';
import { DeliveryRepo } from './deliveries.js';
import { presentDelivery, presentSubscription } from './schema.js';
import { SubscriptionRepo } from './subscriptions.js';

type WebhookCommand = Extract<Command, { name: `webhook ${string}` }>;

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
