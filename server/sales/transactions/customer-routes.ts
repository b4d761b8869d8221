import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { authOf } from '../../platform/http/auth.js';
import { halfWidthCode, id, oneOf } from '../../platform/http/fields.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { actorOf } from '../../masters/customers/routes.js';
import { MemberAttacher } from './attach-member.js';
import { presentTransaction, transaction } from './present.js';
import { transactionParams } from './schema.js';

/**
 * The platform's transaction member update body: the member by customerId (or customerCode),
 * and pointUpdateDivision — 0 (default) no point movement, 1 the points the sale moved go from
 * its member to the new one, 2 the sale's points are computed anew for the new member.
 */
export const updateTransactionCustomerBody = z
  .strictObject({
    customerId: id().optional(),
    customerCode: halfWidthCode(20).optional(),
    pointUpdateDivision: oneOf(['0', '1', '2']).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.customerId === undefined && body.customerCode === undefined) {
      ctx.addIssue({ code: 'custom', path: ['customerId'], message: 'is required (or customerCode)' });
    }
  });

export type UpdateTransactionCustomer = z.infer<typeof updateTransactionCustomerBody>;

/** PATCH /transactions/{transaction_id}/customer: a member attached to a sale afterwards. */
export default function transactionCustomerRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const attacher = new MemberAttacher(deps.db, deps.writer, deps.ids, deps.clock);
  const tags = ['transactions'];

  return async (app) => {
    app.patch(
      '/transactions/:transaction_id/customer',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: "Give a sale its member afterwards (or another member); points move once, by pointUpdateDivision",
          params: transactionParams,
          body: updateTransactionCustomerBody,
          response: { 200: transaction, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const record = attacher.attach(auth.contract, request.params.transaction_id, request.body, actorOf(auth));
        return presentTransaction(record, auth.contract.timeZone);
      },
    );
  };
}
