import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes, type MasterRoutesSpec } from '../../platform/http/master-routes.js';
import { ProductLabelRepo, type LabelRow } from './repo.js';
import { createLabelBody, labelParams, presentLabel, reserveItemLabel, updateLabelBody, type CreateLabel, type UpdateLabel } from './schema.js';

/**
 * Free-item labels of products (spec 4.18). The static segment `reserve_item_labels` wins
 * over `/products/:product_id` in Fastify's router, so these paths never reach the products.
 */
export default function productLabelsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const labels = new ProductLabelRepo(deps.db, deps.writer, deps.clock);
  const tags = ['product free-item labels'];
  // A label is named by its number: 1 to 50 without leading zeros (labelParams).
  const byNumber = {
    create: (contractId: string, body: CreateLabel) => labels.create(contractId, body),
    get: (contractId: string, no: string) => labels.get(contractId, Number(no)),
    update: (contractId: string, no: string, body: UpdateLabel) => labels.update(contractId, Number(no), body),
    delete: (contractId: string, no: string) => labels.delete(contractId, Number(no)),
  };
  const spec = {
    path: '/products/reserve_item_labels',
    params: labelParams,
    noun: ['free-item label', 'free-item labels'],
    tags,
    scope: 'pos.products',
    record: reserveItemLabel,
    present: presentLabel,
    create: createLabelBody,
    update: updateLabelBody,
    delete: true,
    summaries: {
      create: 'Register free-item label 1 to 50 (400 when the number is taken)',
      update: 'Rename a free-item label',
      delete: 'Delete a free-item label (spec 4.18): 400 while a product uses it',
    },
  } satisfies MasterRoutesSpec<LabelRow, typeof createLabelBody, typeof updateLabelBody, never, never>;

  return async (app) => {
    registerMasterRoutes(app, 'product_reserve_item_label', byNumber, { ...spec, only: ['create'] });

    // At most fifty rows, so no paging: the whole list in number order.
    apiRoutes(app, tags).get(
      '/products/reserve_item_labels',
      'pos.products:read',
      { summary: 'List the free-item labels', response: answers.list(reserveItemLabel) },
      ({ contract }) => labels.list(contract.contractId).map((r) => presentLabel(r, contract.timeZone)),
    );

    registerMasterRoutes(app, 'product_reserve_item_label', byNumber, { ...spec, only: ['get', 'update', 'delete'] });
  };
}
