import type { AppDeps } from '../../deps.js';
import { RIGHTS } from '../http/rights.js';
import { ALL_SCOPES } from '../http/scopes.js';
import { registerClient } from '../auth/credentials.js';
import { AuthRepo } from '../auth/repo.js';
import { StaffLoginRepo } from '../auth/staff-logins.js';
import { ContractRepo } from '../contracts/repo.js';
import { StaffRepo } from '../../masters/staffs/repo.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { TerminalRegistry } from '../../masters/terminals/registry.js';
import { DEFAULT_TIME_ZONE, type ShopBody } from './schema.js';

/**
 * A shop on its own (issue 21 setup way b), made in one write: the contract, its first store, a
 * staff member who logs in with the staff code and password and holds every back-office right
 * (the owner sets up the others), a register terminal in that store, and an API client with
 * every scope for the terminals. Everything or nothing: a failure part-way leaves no contract,
 * so the setup screen can be filled in again. `assertOpen` runs first in the same transaction.
 */
export function createShop(deps: AppDeps, body: Omit<ShopBody, 'password'>, passwordHash: string, assertOpen: () => void) {
  const { db, writer, ids, clock } = deps;
  const contracts = new ContractRepo(db, writer, clock);
  const stores = new StoreRepo(db, writer, ids, clock);
  const staffs = new StaffRepo(db, writer, ids, clock);
  const logins = new StaffLoginRepo(db, writer, clock);
  const terminals = new TerminalRegistry(db, writer, ids, clock);
  const auth = new AuthRepo(db, writer, clock);

  return writer.write(() => {
    assertOpen();
    const contract = contracts.create({ contractId: body.contractId, name: body.contractName, plan: body.plan, timeZone: body.timeZone ?? DEFAULT_TIME_ZONE });
    const { contractId } = contract;
    const store = stores.create(contractId, { storeName: body.storeName });
    const storeId = String(store.store_id);
    // The administrator's top screen and flag: the first staff member runs the shop.
    const staff = staffs.create(contractId, { staffName: body.staffName, staffCode: body.staffCode, adminFlag: true, dashboardType: 1 });
    const staffId = String(staff.staff_id);
    logins.set(contractId, staffId, passwordHash, [...RIGHTS]);
    const terminal = terminals.create(contract, { storeId, terminalName: body.terminalName });
    const client = registerClient(auth, contractId, ALL_SCOPES);
    return {
      contract: { contractId, name: contract.name, plan: contract.plan, timeZone: contract.timeZone },
      storeId,
      staffId,
      staffCode: body.staffCode,
      terminalId: String(terminal.terminal_id),
      client: { ...client, scopes: [...ALL_SCOPES] },
      tokenPath: `/app/${contractId}/token`,
      basePath: `/${contractId}/pos`,
    };
  });
}
