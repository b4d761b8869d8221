import type { ServerModule } from '../server/modules.js';
import { problemSchema } from '../server/platform/http/problem.js';
import { applyLinkedNode, prepareCliDeps } from './cli.js';
import { SYNC_COMMANDS } from './commands.js';
import { installSyncHooks } from './write-hooks.js';
import centralSyncRoutes from './routes/central.js';
import { nodeRateLimitHook } from './routes/node-limit.js';
import syncStatusRoutes from './routes/status.js';
import webhookRoutes from './routes/webhooks.js';
import { startSyncScheduler } from './scheduler.js';
import { headOfficeLink } from './setup.js';
import { startWebhookWorker } from './webhooks/deliver.js';
import { WEBHOOK_COMMANDS, WEBHOOK_USAGE_NOTES } from './webhooks/cli.js';

/**
 * Sync (DESIGN §5) as the server takes it (server/modules.ts), handed in by the composition
 * root (the top-level main.ts): everything sync adds to a server is listed here.
 */
export const syncModule: ServerModule = {
  name: 'sync',
  // A store's outbox rows, central's change log, both with their versions: in every write's transaction.
  installWriteHooks: (deps) => void installSyncHooks(deps),
  // Webhook subscriptions and deliveries, sync status, dead letters and conflicts on the API.
  apiRoutes: [webhookRoutes, syncStatusRoutes],
  // Central's push, pull and link check: node credentials instead of the API's token, and each
  // node's own rate limit (counted only once its credentials hold).
  async registerRoutes(app, deps, limits) {
    if (deps.config.role !== 'central') return;
    await app.register(async (sync) => {
      sync.addHook('onRoute', (route) => void (route.schema = { ...route.schema, response: { ...(route.schema?.response as object), 429: problemSchema } }));
      sync.addHook('onRequest', nodeRateLimitHook(deps, limits));
      await sync.register(centralSyncRoutes(deps));
    });
  },
  // The setup screen's way to connect a store to head office: `link`'s check and save.
  headOfficeLink,
  // Webhook deliveries and their retries; a store's push and pull.
  startJobs: (deps, log) => [startWebhookWorker(deps, log), ...(deps.config.role === 'store' ? [startSyncScheduler(deps, log)] : [])],
  cli: {
    commands: [...WEBHOOK_COMMANDS, ...SYNC_COMMANDS],
    notes: WEBHOOK_USAGE_NOTES,
    // Records a command makes get the linked node's ids and their outbox / change-log rows.
    commandDeps: prepareCliDeps,
    // A linked store mints ids with the node central knows it by.
    beforeServe: (deps, { node }) => applyLinkedNode(deps, node),
  },
};
