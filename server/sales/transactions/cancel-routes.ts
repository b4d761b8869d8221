import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../../masters/customers/routes.js';
import { authOf } from '../../platform/http/auth.js';
import { commonErrorResponses, problemSchema } from '../../platform/http/problem.js';
import { layaway, presentLayaway } from '../layaways/schema.js';
import { TransactionCanceller } from './cancel.js';
import { presentTransaction, transaction } from './present.js';
import { TransactionRegistry } from './register.js';
import { transactionParams } from './schema.js';

/** The cancel takes no fields: clients send `{}` or nothing. */
export const cancelTransactionBody = z.strictObject({}).nullable().optional();

/** POST /transactions/{transaction_id}/cancel (取引取消): the sale is voided, no offsetting record. */
export default function transactionCancelRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const canceller = new TransactionCanceller(deps.db, new TransactionRegistry(deps.db, deps.writer, deps.ids, deps.clock));

  return async (app) => {
    app.post(
      '/transactions/:transaction_id/cancel',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags: ['transactions'],
          summary: 'Cancel a sale (取消): cancelDivision 1, its stock and member points go back, the closing no longer counts it; no return-cancel record. A layaway id cancels the layaway (its goods back on sale; 409 once picked up or cancelled)',
          params: transactionParams,
          body: cancelTransactionBody,
          response: { 200: z.union([transaction, layaway]), ...commonErrorResponses, 404: problemSchema, 409: problemSchema },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const cancelled = canceller.cancel(auth.contract, request.params.transaction_id, actorOf(auth));
        const zone = auth.contract.timeZone;
        return 'transaction' in cancelled ? presentTransaction(cancelled.transaction, zone) : presentLayaway(cancelled.layaway.row, cancelled.layaway.details, zone);
      },
    );
  };
}
