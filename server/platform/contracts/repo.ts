import type { Plan } from '../../domain/plans.js';
import type { RoundingCode } from '../../domain/transaction-totals-types.js';
import type { Clock } from '../../clock.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';

/** Options bought with the contract; set by the operator (`contract set`), read by the rules. */
export interface ContractSettings {
  /** Staff ranks are maintained by head office's member linkage: 4.8 refuses updates here. */
  memberHeadOfficeLinkage: boolean;
  /** Payment terminals (CAT/CCT) may be linked to register terminals (4.16). */
  catCctLinkage: boolean;
  maxSalesTerminals: number;
  maxSelfCheckoutTerminals: number;
  maxSmartIdEngines: number;
  /** Rounding of tax amounts (2.13 taxRounding default): '0' half up, '1' down, '2' up. */
  taxRounding: RoundingCode;
  /** Rounding of discounts (2.13 discountRoundingDivision default), same codes. */
  discountRoundingDivision: RoundingCode;
  /** Inventory (issue 14): shipments go through approval (3.2's default approvalStatus). */
  inventoryApproval: boolean;
  /** Inventory: a shipped shipment (status 2) may not be edited (3.3, 4.12's 400). */
  shippedShipmentEditForbidden: boolean;
  /** Inventory: the purchase order split unit (4.14 divisionUnit): '0' none, '1' category group, '2' supplier. */
  orderSplitUnit: OrderSplitUnit;
}

/** The order split unit codes, as purchase orders' divisionUnit spells them. */
export const ORDER_SPLIT_UNITS = ['0', '1', '2'] as const;
export type OrderSplitUnit = (typeof ORDER_SPLIT_UNITS)[number];

/** The contract's inventory settings, as the shipment and purchase order rules read them. */
export type InventorySettings = Pick<ContractSettings, 'inventoryApproval' | 'shippedShipmentEditForbidden' | 'orderSplitUnit'>;

export const DEFAULT_SETTINGS: ContractSettings = {
  memberHeadOfficeLinkage: false,
  catCctLinkage: false,
  maxSalesTerminals: 10,
  maxSelfCheckoutTerminals: 0,
  maxSmartIdEngines: 0,
  taxRounding: '1',
  discountRoundingDivision: '0',
  inventoryApproval: false,
  shippedShipmentEditForbidden: false,
  orderSplitUnit: '0',
};

export interface Contract {
  contractId: string;
  name: string;
  plan: Plan;
  timeZone: string;
  settings: ContractSettings;
}

interface ContractRow {
  contract_id: string;
  name: string;
  plan: Plan;
  time_zone: string;
  member_head_office_linkage: number;
  cat_cct_linkage: number;
  max_sales_terminals: number;
  max_self_checkout_terminals: number;
  max_smart_id_engines: number;
  tax_rounding: RoundingCode;
  discount_rounding_division: RoundingCode;
  inventory_approval: number;
  shipped_shipment_edit_forbidden: number;
  order_split_unit: OrderSplitUnit;
}

const toContract = (r: ContractRow): Contract => ({
  contractId: r.contract_id,
  name: r.name,
  plan: r.plan,
  timeZone: r.time_zone,
  settings: {
    memberHeadOfficeLinkage: r.member_head_office_linkage === 1,
    catCctLinkage: r.cat_cct_linkage === 1,
    maxSalesTerminals: r.max_sales_terminals,
    maxSelfCheckoutTerminals: r.max_self_checkout_terminals,
    maxSmartIdEngines: r.max_smart_id_engines,
    taxRounding: r.tax_rounding,
    discountRoundingDivision: r.discount_rounding_division,
    inventoryApproval: r.inventory_approval === 1,
    shippedShipmentEditForbidden: r.shipped_shipment_edit_forbidden === 1,
    orderSplitUnit: r.order_split_unit,
  },
});

export class ContractRepo {
  private readonly byId;
  private readonly insert;
  private readonly updatePlan;
  private readonly insertSection;
  private readonly updateSettings;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare(
      `SELECT contract_id, name, plan, time_zone, member_head_office_linkage, cat_cct_linkage,
              max_sales_terminals, max_self_checkout_terminals, max_smart_id_engines, tax_rounding, discount_rounding_division,
              inventory_approval, shipped_shipment_edit_forbidden, order_split_unit
       FROM contracts WHERE contract_id = ?`,
    );
    this.updateSettings = db.prepare(
      `UPDATE contracts SET member_head_office_linkage = @memberHeadOfficeLinkage, cat_cct_linkage = @catCctLinkage,
         max_sales_terminals = @maxSalesTerminals, max_self_checkout_terminals = @maxSelfCheckoutTerminals,
         max_smart_id_engines = @maxSmartIdEngines, tax_rounding = @taxRounding,
         discount_rounding_division = @discountRoundingDivision, inventory_approval = @inventoryApproval,
         shipped_shipment_edit_forbidden = @shippedShipmentEditForbidden, order_split_unit = @orderSplitUnit, updated_at = @now
       WHERE contract_id = @contractId`,
    );
    this.insert = db.prepare(
      `INSERT INTO contracts (contract_id, name, plan, time_zone, created_at, updated_at)
       VALUES (@contractId, @name, @plan, @timeZone, @now, @now)`,
    );
    this.updatePlan = db.prepare('UPDATE contracts SET plan = ?, updated_at = ? WHERE contract_id = ?');
    this.insertSection = db.prepare(
      `INSERT INTO customer_group_sections (contract_id, section_id, label, ins_at, upd_at) VALUES (?, 1, ?, ?, ?)`,
    );
  }

  /** Every contract on this server, by id (the UI's login lists them: platform/http/ui.ts). */
  list(): Array<Pick<Contract, 'contractId' | 'name' | 'plan' | 'timeZone'>> {
    const rows = this.byId.database.prepare('SELECT contract_id, name, plan, time_zone FROM contracts ORDER BY contract_id').all() as ContractRow[];
    return rows.map((r) => ({ contractId: r.contract_id, name: r.name, plan: r.plan, timeZone: r.time_zone }));
  }

  find(contractId: string): Contract | undefined {
    const row = this.byId.get(contractId) as ContractRow | undefined;
    return row && toContract(row);
  }

  /**
   * Creates a contract. Customer group section 1 exists from the start, so a shop can add
   * customer groups right away (sections 2 to 5 are added by PUT when wanted).
   */
  create(contract: Omit<Contract, 'settings'> & { settings?: Partial<ContractSettings> }): Contract {
    const now = this.clock.now().getTime();
    return this.writer.write(() => {
      if (this.find(contract.contractId)) throw new ContractExistsError(contract.contractId);
      const { settings, ...fields } = contract;
      this.insert.run({ ...fields, now });
      this.insertSection.run(contract.contractId, 'Customer group', now, now);
      this.writer.changed({ contractId: contract.contractId, entity: 'contract', id: contract.contractId, op: 'insert' });
      return settings ? this.setSettings(contract.contractId, settings) : this.find(contract.contractId)!;
    });
  }

  /** Changes the settings given and keeps the others. */
  setSettings(contractId: string, changes: Partial<ContractSettings>): Contract {
    return this.writer.write(() => {
      const found = this.find(contractId);
      if (!found) throw new UnknownContractError(contractId);
      const settings = { ...found.settings, ...changes };
      this.updateSettings.run({
        ...settings,
        memberHeadOfficeLinkage: settings.memberHeadOfficeLinkage ? 1 : 0,
        catCctLinkage: settings.catCctLinkage ? 1 : 0,
        inventoryApproval: settings.inventoryApproval ? 1 : 0,
        shippedShipmentEditForbidden: settings.shippedShipmentEditForbidden ? 1 : 0,
        contractId,
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'contract', id: contractId, op: 'update' });
      return { ...found, settings };
    });
  }

  /**
   * The contract's inventory settings (approval function, editing of shipped shipments, order
   * split unit), for the shipment and purchase order rules; throws UnknownContractError.
   */
  inventorySettings(contractId: string): InventorySettings {
    const found = this.find(contractId);
    if (!found) throw new UnknownContractError(contractId);
    const { inventoryApproval, shippedShipmentEditForbidden, orderSplitUnit } = found.settings;
    return { inventoryApproval, shippedShipmentEditForbidden, orderSplitUnit };
  }

  setPlan(contractId: string, plan: Plan): Contract {
    return this.writer.write(() => {
      const found = this.find(contractId);
      if (!found) throw new UnknownContractError(contractId);
      this.updatePlan.run(plan, this.clock.now().getTime(), contractId);
      this.writer.changed({ contractId, entity: 'contract', id: contractId, op: 'update' });
      return { ...found, plan };
    });
  }
}

export class ContractExistsError extends Error {
  constructor(id: string) {
    super(`contract ${id} already exists`);
  }
}

export class UnknownContractError extends Error {
  constructor(id: string) {
    super(`contract ${id} does not exist`);
  }
}
