import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';

// Scaffold for issue 3: replaced by the resource's routes.
export default function ordersRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async () => {};
}
