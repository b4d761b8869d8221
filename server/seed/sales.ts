import type { AppDeps } from '../deps.js';
import { formatDate, formatDateTime } from '../domain/time.js';
import { ContractRepo } from '../platform/contracts/repo.js';
import { TerminalRepo } from '../masters/terminals/repo.js';
import type { ListTerminalsQuery } from '../masters/terminals/schema.js';
import { TransactionRegistry } from '../sales/transactions/register.js';
import type { CreateTransaction, DetailInput } from '../sales/transactions/schema.js';
import type { DemoContext } from './context.js';

/**
 * Five demo transactions of the main store, registered through the same rules as POST
 * /transactions: a cash sale with change, a tax-excluded sale with a subtotal discount, a sale
 * with a returned item, a rounded sale and a float deposit. They sit on the store's first
 * register, unprocessed (ready for a settlement); without a register (a plan that cannot have
 * one) they are registered as closed on today's date.
 */
export function seedSales(deps: AppDeps, ctx: DemoContext): Record<string, number> {
  const contract = new ContractRepo(deps.db, deps.writer, deps.clock).find(ctx.contractId);
  if (!contract) throw new Error(`contract ${ctx.contractId} does not exist`);
  const registry = new TransactionRegistry(deps.db, deps.writer, deps.ids, deps.clock);
  const storeId = ctx.storeIds[0];
  const page = { limit: 1, page: 1, sort: [] };
  const [terminal] = new TerminalRepo(deps.db, deps.writer, deps.clock).list(ctx.contractId, { store_id: storeId, ...page } as ListTerminalsQuery, page);
  const now = deps.clock.now().getTime();
  const zone = contract.timeZone;
  const where = terminal
    ? { terminalId: String(terminal.terminal_id) }
    : { sumDivision: '2', sumDate: formatDate(now, zone) };
  const categoryId = Object.values(ctx.categoryIds)[0];
  const item = (n: number, name: string, salesPrice: string, extra: Partial<DetailInput> = {}): DetailInput => ({
    transactionDetailId: String(n),
    productName: name,
    salesPrice,
    quantity: '1',
    ...(categoryId ? { categoryId } : {}),
    ...extra,
  });
  const minutesAgo = (m: number) => formatDateTime(now - m * 60_000, zone);
  const sales: Omit<CreateTransaction, 'storeId'>[] = [
    { transactionHeadDivision: '2', terminalTranDateTime: minutesAgo(120), total: '30000', memo: 'Float for the day' },
    {
      transactionHeadDivision: '1',
      terminalTranDateTime: minutesAgo(90),
      depositCash: '5000',
      details: [item(1, 'Cotton tee', '1980', { quantity: '2' }), item(2, 'Canvas tote', '880')],
    },
    {
      transactionHeadDivision: '1',
      terminalTranDateTime: minutesAgo(60),
      subtotalDiscountPrice: '300',
      details: [item(1, 'Wool scarf', '3000', { taxDivision: '1' }), item(2, 'Gift box', '200', { taxDivision: '1', calcDiscount: '0' })],
    },
    {
      transactionHeadDivision: '1',
      terminalTranDateTime: minutesAgo(30),
      details: [item(1, 'Linen shirt', '4500'), item(2, 'Cotton tee (returned)', '1980', { transactionDetailDivision: '2' })],
    },
    {
      transactionHeadDivision: '1',
      terminalTranDateTime: minutesAgo(10),
      roundingDivision: '12',
      details: [item(1, 'Socks', '495', { quantity: '3' })],
    },
  ];
  return deps.writer.write(() => {
    for (const sale of sales) registry.register(contract, { storeId, ...where, ...sale } as CreateTransaction);
    return { transactions: sales.length };
  });
}
