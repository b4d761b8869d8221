import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { sendPage } from '../../platform/http/paging.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { CustomerGroupRepo, CustomerGroupSectionRepo } from './repo.js';
import {
  createCustomerGroupBody,
  customerGroup,
  customerGroupParams,
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
    app.put(
      '/customer_group_sections/:customer_group_section_id',
      {
        config: { scope: 'pos.customers:write' },
        schema: {
          tags,
          summary: 'Create customer group section 1 to 5, replace its label, or delete it (empty label; only without groups)',
          params: sectionParams,
          body: putSectionBody,
          response: { 200: customerGroupSection, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = sections.put(contract.contractId, Number(request.params.customer_group_section_id), request.body.customerGroupSectionLabel);
        return presentCustomerGroupSection(row, contract.timeZone);
      },
    );

    // At most five rows; paging and sort are taken as on every list (SDKs send limit and page).
    app.get(
      '/customer_group_sections',
      {
        config: { scope: 'pos.customers:read' },
        schema: {
          tags,
          summary: 'List the customer group sections',
          querystring: listSectionsQuery,
          response: { 200: z.array(customerGroupSection), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = sections.list(contract.contractId, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentCustomerGroupSection(r, contract.timeZone));
      },
    );

    app.post(
      '/customer_groups',
      {
        config: { scope: 'pos.customers:write' },
        schema: {
          tags,
          summary: 'Register a customer group',
          body: createCustomerGroupBody,
          response: { 200: customerGroup, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCustomerGroup(groups.create(contract.contractId, request.body), contract.timeZone);
      },
    );

    app.get(
      '/customer_groups',
      {
        config: { scope: 'pos.customers:read' },
        schema: {
          tags,
          summary: 'List customer groups',
          querystring: listCustomerGroupsQuery,
          response: { 200: z.array(customerGroup), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const { contract } = authOf(request);
        const rows = groups.list(contract.contractId, request.query, request.query);
        return sendPage(request, reply, request.query, rows).map((r) => presentCustomerGroup(r, contract.timeZone));
      },
    );

    app.get(
      '/customer_groups/:customer_group_id',
      {
        config: { scope: 'pos.customers:read' },
        schema: {
          tags,
          summary: 'Get a customer group',
          params: customerGroupParams,
          response: { 200: customerGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        return presentCustomerGroup(groups.get(contract.contractId, request.params.customer_group_id), contract.timeZone);
      },
    );

    app.patch(
      '/customer_groups/:customer_group_id',
      {
        config: { scope: 'pos.customers:write' },
        schema: {
          tags,
          summary: 'Update a customer group (only the keys sent change)',
          params: customerGroupParams,
          body: updateCustomerGroupBody,
          response: { 200: customerGroup, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = groups.update(contract.contractId, request.params.customer_group_id, request.body);
        return presentCustomerGroup(row, contract.timeZone);
      },
    );
  };
}
