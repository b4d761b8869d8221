import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers, sendNoContent } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { ProductOptionGroupRepo } from './repo.js';
import {
  createProductOptionGroupBody,
  getProductOptionGroupQuery,
  listProductOptionGroupsQuery,
  optionGroupProductParams,
  presentProductOptionGroup,
  productOptionGroup,
  productOptionGroupFields,
  productOptionGroupParams,
  updateProductOptionGroupBody,
  type GetProductOptionGroupQuery,
  type OptionGroupRecord,
} from './schema.js';

/**
 * The platform's product option groups (issue 26): the restaurant API's topping groups seen
 * from the POS side, with their option products. A group's products are answered on POST and
 * PATCH, and on GET with with_products=all.
 */
export default function productOptionGroupsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const groups = new ProductOptionGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['product option groups'];
  const records = {
    create: groups.create.bind(groups),
    list: groups.list.bind(groups),
    get: (contractId: string, id: string) => groups.record(contractId, id),
    update: groups.update.bind(groups),
    delete: groups.delete.bind(groups),
  };
  /** Reads (a query) carry products only with with_products=all; writes (no query) always. */
  const present = (record: OptionGroupRecord, zone: string, query?: Partial<GetProductOptionGroupQuery>) =>
    presentProductOptionGroup(query && query.with_products !== 'all' ? { row: record.row } : record, zone);

  return async (app) => {
    registerMasterRoutes(app, 'topping_group', records, {
      tags,
      scope: 'pos.products',
      path: '/product_option_groups',
      params: productOptionGroupParams,
      noun: ['product option group', 'product option groups'],
      record: productOptionGroup,
      present,
      fields: productOptionGroupFields,
      create: createProductOptionGroupBody,
      list: listProductOptionGroupsQuery,
      get: getProductOptionGroupQuery,
      update: updateProductOptionGroupBody,
      delete: true,
      summaries: {
        create: 'Register a product option group with its option products (productDivision 2)',
        list: 'List product option groups (the restaurant API shows the same groups as topping groups)',
        get: 'Get a product option group; with_products=all adds its option products',
        update: 'Update a product option group (only the keys sent change; products replaces the whole list; conditionId 0 clears max and min)',
        delete: 'Delete a product option group no product offers',
      },
    });

    apiRoutes(app, tags).delete(
      '/product_option_groups/:product_option_group_id/products/:product_id',
      'pos.products:write',
      { summary: 'Remove an option product from a product option group (not its last one)', params: optionGroupProductParams, response: answers.noContent() },
      ({ contract, params, reply }) => {
        groups.removeProduct(contract.contractId, params.product_option_group_id, params.product_id);
        return sendNoContent(reply);
      },
    );
  };
}
