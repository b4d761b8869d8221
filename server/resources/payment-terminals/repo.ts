import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
import { StoreRepo } from '../stores/repo.js';
import type { CreatePaymentTerminal, ListPaymentTerminalsQuery, UpdatePaymentTerminal } from './schema.js';

export interface PaymentTerminalRow {
  contract_id: string;
  payment_terminal_id: number;
  store_id: number | null;
  name: string;
  kind: 'CAT' | 'CCT';
  device_code: string | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = { storeId: 'store_id', name: 'name', kind: 'kind', deviceCode: 'device_code' };
const DEVICES = { table: 'payment_terminals', key: 'payment_terminal_id' };
const SORT_COLUMNS = { paymentTerminalId: 'payment_terminal_id', storeId: 'store_id', name: 'name', updDateTime: 'upd_at' };

/** Payment terminals (CAT/CCT devices) that register terminals link as creditTerminalId. */
export class PaymentTerminalRepo {
  private readonly byId;
  private readonly insert;
  private readonly linkedTo;
  private readonly stores;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.byId = db.prepare('SELECT * FROM payment_terminals WHERE contract_id = ? AND payment_terminal_id = ?');
    this.insert = db.prepare(
      `INSERT INTO payment_terminals (contract_id, payment_terminal_id, store_id, name, kind, device_code, ins_at, upd_at)
       VALUES (@contractId, @paymentTerminalId, @storeId, @name, @kind, @deviceCode, @now, @now)`,
    );
    this.linkedTo = db.prepare('SELECT terminal_id FROM terminals WHERE contract_id = ? AND credit_terminal_id = ?');
  }

  find(contractId: string, paymentTerminalId: string | number): PaymentTerminalRow | undefined {
    return this.byId.get(contractId, paymentTerminalId) as PaymentTerminalRow | undefined;
  }

  get(contractId: string, paymentTerminalId: string): PaymentTerminalRow {
    const row = this.find(contractId, paymentTerminalId);
    if (!row) throw NotFound.field('payment_terminal_id', `payment terminal ${paymentTerminalId} does not exist`);
    return row;
  }

  /** The register terminal that links the device, if any (one device serves one register). */
  linkedTerminal(contractId: string, paymentTerminalId: number): number | undefined {
    return (this.linkedTo.get(contractId, paymentTerminalId) as { terminal_id: number } | undefined)?.terminal_id;
  }

  create(contractId: string, input: CreatePaymentTerminal): PaymentTerminalRow {
    return this.writer.write(() => {
      const storeId = this.assertStore(contractId, input.storeId ?? null);
      const paymentTerminalId = this.ids.next('payment_terminals');
      this.insert.run({
        contractId,
        paymentTerminalId,
        storeId,
        name: input.name,
        kind: input.kind,
        deviceCode: input.deviceCode ?? null,
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'payment_terminal', id: paymentTerminalId, op: 'insert' });
      return this.get(contractId, paymentTerminalId);
    });
  }

  update(contractId: string, paymentTerminalId: string, patch: UpdatePaymentTerminal): PaymentTerminalRow {
    return this.writer.write(() => {
      const current = this.get(contractId, paymentTerminalId);
      const values: Record<string, unknown> = { ...patch };
      if (patch.storeId !== undefined) values.storeId = this.assertStore(contractId, patch.storeId);
      if (updateRow(this.db, DEVICES, contractId, current.payment_terminal_id, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'payment_terminal', id: String(current.payment_terminal_id), op: 'update' });
      }
      return this.get(contractId, paymentTerminalId);
    });
  }

  list(contractId: string, query: ListPaymentTerminalsQuery, page: Page<keyof typeof SORT_COLUMNS>): PaymentTerminalRow[] {
    const filters = { store_id: query.store_id === undefined ? undefined : Number(query.store_id), kind: query.kind };
    return selectPage<PaymentTerminalRow, keyof typeof SORT_COLUMNS>(this.db, DEVICES, contractId, filters, page, SORT_COLUMNS);
  }

  private assertStore(contractId: string, storeId: string | null): number | null {
    if (storeId === null) return null;
    return this.stores.referenced(contractId, storeId).store_id;
  }
}
