import type { AppDeps } from '../../deps.js';
import { checkoutLines } from '../../domain/checkout.js';
import { ConflictError, InvalidInput } from '../../domain/errors.js';
import { formatDateTime } from '../../domain/time.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { TransactionRegistry } from '../../sales/transactions/register.js';
import { createTransactionBody, type CreateTransaction } from '../../sales/transactions/schema.js';
import { TableUseRepo } from '../orders/table-uses.js';
import { TableUseBook, type TableUseHistoryRow } from './repo.js';
import { SALE_FIELDS, type CheckoutBody } from './schema.js';

const GROUP_FIELDS = ['customerGroupId', 'customerGroupId2', 'customerGroupId3', 'customerGroupId4', 'customerGroupId5'] as const;

/**
 * PUT /table_uses/{table_use_id}/checkout (会計): the table use ends and its orders become one
 * sale, registered by the one transaction registration (POST /pos/transactions' rules: the
 * terminal, the open day, payments covering the total, stock moved by the lines' products), or
 * the table use closes on a sale the register already made. One write: the sale, the table use
 * ended on it, its reservation paid.
 */
export class Checkout {
  private readonly registry: TransactionRegistry;
  private readonly uses: TableUseRepo;
  private readonly book: TableUseBook;

  constructor(deps: AppDeps) {
    this.registry = new TransactionRegistry(deps.db, deps.writer, deps.ids, deps.clock);
    this.uses = new TableUseRepo(deps.db, deps.writer, deps.ids, deps.clock);
    this.book = new TableUseBook(deps.db, deps.writer);
  }

  run(contract: Contract, tableUseId: string, body: CheckoutBody): TableUseHistoryRow {
    const cid = contract.contractId;
    return this.registry.writer.write(() => {
      this.uses.get(cid, tableUseId);
      const use = this.book.find(cid, tableUseId)!;
      if (use.status === 'ended' && use.transaction_head_id !== null) {
        throw ConflictError.field('table_use_id', `table use ${tableUseId} is already checked out (transaction ${use.transaction_head_id})`);
      }
      if (use.status !== 'started') throw InvalidInput.field('table_use_id', `table use ${tableUseId} is ${use.status}; only a started table use can be checked out`);
      const saleId = body.transactionHeadId === undefined ? this.registerSale(contract, use, body) : this.linkedSale(cid, use, body);
      const other = this.book.useOfSale(cid, saleId);
      if (other !== undefined) throw ConflictError.field('transactionHeadId', `transaction ${saleId} already closes table use ${other}`);
      this.book.checkedOut(cid, use.table_use_id, saleId, this.registry.clock.now().getTime());
      return this.book.find(cid, tableUseId)!;
    });
  }

  /** A sale the register made: of the table use's store, a sale (division 1); nothing else may be sent with it. */
  private linkedSale(cid: string, use: TableUseHistoryRow, body: CheckoutBody): number {
    const sent = SALE_FIELDS.find((f) => body[f] !== undefined);
    if (sent) throw InvalidInput.field(sent, 'must not be sent with transactionHeadId: the linked sale already carries it');
    const sale = this.registry.repo.find(cid, body.transactionHeadId!);
    if (!sale) throw InvalidInput.field('transactionHeadId', `transaction ${body.transactionHeadId} does not exist`);
    const h = sale.header;
    if (Number(h.storeId) !== use.store_id) throw InvalidInput.field('transactionHeadId', `transaction ${body.transactionHeadId} is of store ${h.storeId}, not of store ${use.store_id}`);
    if (h.transactionHeadDivision !== '1') throw InvalidInput.field('transactionHeadId', `transaction ${body.transactionHeadId} is not a sale (transactionHeadDivision ${h.transactionHeadDivision})`);
    return Number(h.transactionHeadId);
  }

  /** The orders as a sale of POST /pos/transactions, registered; its refusals name the checkout's fields. */
  private registerSale(contract: Contract, use: TableUseHistoryRow, body: CheckoutBody): number {
    const cid = contract.contractId;
    const items = this.book.extras(cid, [use]).items.get(use.table_use_id) ?? [];
    const details = checkoutLines(items, (menuId) => this.book.productIdOfMenu(cid, menuId));
    if (!details.length) {
      throw InvalidInput.field(
        'table_use_id',
        `table use ${use.table_use_id} has nothing to charge (no item that is not canceled); end it with PATCH /table_uses/${use.table_use_id} {"status":"ended"}`,
      );
    }
    const groups = JSON.parse(use.customer_group_ids) as number[];
    const { transactionHeadId: _none, terminalTranDateTime, ...payment } = body;
    const sale = {
      transactionHeadDivision: '1',
      storeId: String(use.store_id),
      ...payment,
      terminalTranDateTime: terminalTranDateTime ?? formatDateTime(this.registry.clock.now().getTime(), contract.timeZone),
      ...Object.fromEntries(groups.map((g, i) => [GROUP_FIELDS[i], String(g)])),
      ...(use.number > 0 ? { guestNumbers: String(use.number) } : {}),
      enterDateTime: formatDateTime(use.ins_at, contract.timeZone),
      details,
    };
    const parsed = createTransactionBody.safeParse(sale);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw InvalidInput.field(issue.path.join('.'), `the orders do not make a valid sale: ${issue.message}`);
    }
    return Number(this.registry.register(contract, parsed.data as CreateTransaction).record.header.transactionHeadId);
  }
}
