import type { AppDeps } from '../../deps.js';
import { CustomerGroupRepo } from '../../masters/customer-groups/repo.js';
import { presentCustomerGroup, type CustomerGroup } from '../../masters/customer-groups/schema.js';
import { CustomerRepo } from '../../masters/customers/repo.js';
import { presentCustomer } from '../../masters/customers/schema.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { presentStaff } from '../../masters/staffs/schema.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { presentStore } from '../../masters/stores/schema.js';
import type { GetTransactionQuery } from './query.js';
import type { TransactionRead } from './present.js';
import type { TransactionRecord } from './repo.js';

const GROUP_FIELDS = ['customerGroupId', 'customerGroupId2', 'customerGroupId3', 'customerGroupId4', 'customerGroupId5'] as const;
const text = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));

/**
 * The records a sale points to, as GET /transactions/{id} adds them on `with_store`,
 * `with_customer`, `with_customer_groups` and `with_staff`: each shaped as its own resource
 * answers it (the staff member reduced to who they are). A record the sale names but that no
 * longer exists is left out (null, or absent from customerGroups).
 */
export class TransactionRelations {
  private readonly stores;
  private readonly customers;
  private readonly groups;
  private readonly staffs;

  constructor(deps: AppDeps) {
    this.stores = new StoreRepo(deps.db, deps.writer, deps.ids, deps.clock);
    this.customers = new CustomerRepo(deps.db, deps.writer, deps.ids, deps.clock);
    this.groups = new CustomerGroupRepo(deps.db, deps.writer, deps.ids, deps.clock);
    this.staffs = new StaffRepo(deps.db, deps.writer, deps.ids, deps.clock);
  }

  of(contractId: string, zone: string, t: TransactionRecord, q: GetTransactionQuery): Partial<TransactionRead> {
    const out: Partial<TransactionRead> = {};
    const h = t.header;
    if (q.with_store === 'all') {
      const row = this.stores.find(contractId, String(h.storeId));
      out.store = row ? presentStore(row, zone) : null;
    }
    if (q.with_customer === 'all') {
      const row = h.customerId === null || h.customerId === undefined ? undefined : this.customers.find(contractId, h.customerId);
      out.customer = row ? presentCustomer(row, zone) : null;
    }
    if (q.with_customer_groups === 'all') {
      out.customerGroups = GROUP_FIELDS.map((f) => text(h[f]))
        .map((id) => (id === null ? undefined : this.groups.find(contractId, id)))
        .filter((row) => row !== undefined)
        .map((row): CustomerGroup => presentCustomerGroup(row, zone));
    }
    if (q.with_staff === 'all') {
      const row = h.staffId === null || h.staffId === undefined ? undefined : this.staffs.find(contractId, h.staffId);
      if (!row) out.staff = null;
      else {
        const { staffId, staffCode, staffName, staffKana } = presentStaff(row, zone);
        out.staff = { staffId, staffCode, staffName, staffKana };
      }
    }
    return out;
  }
}
