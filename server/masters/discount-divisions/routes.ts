import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { masterRoutes } from '../../platform/http/master-routes.js';
import { DiscountDivisionRepo } from './repo.js';
import {
  createDiscountDivisionBody,
  discountDivision,
  discountDivisionFields,
  discountDivisionParams,
  listDiscountDivisionsQuery,
  presentDiscountDivision,
  updateDiscountDivisionBody,
} from './schema.js';

/** Discount divisions (値引・割引区分, issue 26): sales settings, so under pos.transactions as the platform's. */
export default function discountDivisionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return masterRoutes('discount_division', new DiscountDivisionRepo(deps.db, deps.writer, deps.ids, deps.clock), {
    tags: ['discount divisions'],
    scope: 'pos.transactions',
    params: discountDivisionParams,
    record: discountDivision,
    present: presentDiscountDivision,
    fields: discountDivisionFields,
    create: createDiscountDivisionBody,
    list: listDiscountDivisionsQuery,
    update: updateDiscountDivisionBody,
    delete: true,
    summaries: { delete: 'Delete a discount division (sales keep the number they were made with)' },
  });
}
