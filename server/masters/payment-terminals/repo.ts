import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Page } from '../../platform/http/paging.js';
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
const SORT_COLUMNS = { paymentTerminalId: 'payment_terminal_id', storeId: 'store_id', name: 'name', updDateTime: 'upd_at' };

/** Payment terminals (CAT/CCT devices) that register terminals link as creditTerminalId. */
export class PaymentTerminalRepo extends MasterRepo<PaymentTerminalRow, keyof typeof SORT_COLUMNS> {
  private readonly linkedTo;
  private readonly stores;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'payment_terminal', columns: COLUMNS, sort: SORT_COLUMNS });
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.linkedTo = db.prepare('SELECT terminal_id FROM terminals WHERE contract_id = ? AND credit_terminal_id = ?');
  }

  /** The register terminal that links the device, if any (one device serves one register). */
  linkedTerminal(contractId: string, paymentTerminalId: number): number | undefined {
    return (this.linkedTo.get(contractId, paymentTerminalId) as { terminal_id: number } | undefined)?.terminal_id;
  }

  create(contractId: string, input: CreatePaymentTerminal): PaymentTerminalRow {
    return this.writer.write(() => {
      const storeId = this.assertStore(contractId, input.storeId ?? null);
      const id = this.insertRow(contractId, {
        payment_terminal_id: this.ids.next('payment_terminals'),
        store_id: storeId,
        name: input.name,
        kind: input.kind,
        device_code: input.deviceCode ?? null,
      });
      return this.get(contractId, id);
    });
  }

  update(contractId: string, paymentTerminalId: string, patch: UpdatePaymentTerminal): PaymentTerminalRow {
    return this.writer.write(() => {
      const current = this.get(contractId, paymentTerminalId);
      const values: Record<string, unknown> = { ...patch };
      if (patch.storeId !== undefined) values.storeId = this.assertStore(contractId, patch.storeId);
      this.updateFields(contractId, current, values);
      return this.get(contractId, paymentTerminalId);
    });
  }

  list(contractId: string, query: ListPaymentTerminalsQuery, page: Page<keyof typeof SORT_COLUMNS>): PaymentTerminalRow[] {
    const filters = { store_id: query.store_id === undefined ? undefined : Number(query.store_id), kind: query.kind };
    return this.select(contractId, filters, page);
  }

  private assertStore(contractId: string, storeId: string | null): number | null {
    if (storeId === null) return null;
    return this.stores.referenced(contractId, storeId).store_id;
  }
}
