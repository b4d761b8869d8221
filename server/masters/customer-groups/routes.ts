import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { answers } from '../../platform/http/answers.js';
import { apiRoutes } from '../../platform/http/api-routes.js';
import { registerMasterRoutes } from '../../platform/http/master-routes.js';
import { CustomerGroupRepo, CustomerGroupSectionRepo } from './repo.js';
import {
  createCustomerGroupBody,
  customerGroup,
  customerGroupSection,
  listCustomerGroupsQuery,
  listSectionsQuery,
  presentCustomerGroup,
  presentCustomerGroupSection,
  putSectionBody,
  sectionParams,
  updateCustomerGroupBody,
} from './schema.js';

/** Customer group sections (slots 1..5) and the customer groups filed under them. */
export default function customerGroupRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const sections = new CustomerGroupSectionRepo(deps.db, deps.writer, deps.clock);
  const groups = new CustomerGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['customer groups'];

  return async (app) => {
    const route = apiRoutes(app, tags);
    route.put(
      '/customer_group_sections/:customer_group_section_id',
      'pos.customers:write',
      {
        summary: 'Create customer group section 1 to 5, replace its label, or delete it (empty label; only without groups)',
        params: sectionParams,
        body: putSectionBody,
        response: answers.one(customerGroupSection),
      },
      ({ contract, params, body }) =>
        presentCustomerGroupSection(sections.put(contract.contractId, Number(params.customer_group_section_id), body.customerGroupSectionLabel), contract.timeZone),
    );

    // At most five rows; paging and sort are taken as on every list (SDKs send limit and page).
    route.get(
      '/customer_group_sections',
      'pos.customers:read',
      { summary: 'List the customer group sections', querystring: listSectionsQuery, response: answers.list(customerGroupSection) },
      ({ contract, query, page }) => page(sections.list(contract.contractId, query), (r) => presentCustomerGroupSection(r, contract.timeZone)),
    );

    registerMasterRoutes(app, 'customer_group', groups, {
      tags,
      scope: 'pos.customers',
      record: customerGroup,
      present: presentCustomerGroup,
      create: createCustomerGroupBody,
      list: listCustomerGroupsQuery,
      update: updateCustomerGroupBody,
    });
  };
}
