import type { Plan } from '../../domain/plans.js';
import type { Clock } from '../../clock.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';

export interface Contract {
  contractId: string;
  name: string;
  plan: Plan;
  timeZone: string;
}

interface ContractRow {
  contract_id: string;
  name: string;
  plan: Plan;
  time_zone: string;
}

const toContract = (r: ContractRow): Contract => ({ contractId: r.contract_id, name: r.name, plan: r.plan, timeZone: r.time_zone });

export class ContractRepo {
  private readonly byId;
  private readonly insert;
  private readonly updatePlan;
  private readonly insertSection;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT contract_id, name, plan, time_zone FROM contracts WHERE contract_id = ?');
    this.insert = db.prepare(
      `INSERT INTO contracts (contract_id, name, plan, time_zone, created_at, updated_at)
       VALUES (@contractId, @name, @plan, @timeZone, @now, @now)`,
    );
    this.updatePlan = db.prepare('UPDATE contracts SET plan = ?, updated_at = ? WHERE contract_id = ?');
    this.insertSection = db.prepare(
      `INSERT INTO customer_group_sections (contract_id, section_id, label, ins_at, upd_at) VALUES (?, 1, ?, ?, ?)`,
    );
  }

  find(contractId: string): Contract | undefined {
    const row = this.byId.get(contractId) as ContractRow | undefined;
    return row && toContract(row);
  }

  /**
   * Creates a contract. Customer group section 1 exists from the start, so a shop can add
   * customer groups right away (sections 2 to 5 are added by PUT when wanted).
   */
  create(contract: Contract): Contract {
    const now = this.clock.now().getTime();
    return this.writer.write(() => {
      if (this.find(contract.contractId)) throw new ContractExistsError(contract.contractId);
      this.insert.run({ ...contract, now });
      this.insertSection.run(contract.contractId, 'Customer group', now, now);
      this.writer.changed({ contractId: contract.contractId, entity: 'contract', id: contract.contractId, op: 'insert' });
      return contract;
    });
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
