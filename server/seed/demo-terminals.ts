import type { AppDeps } from '../deps.js';
import { CashDrawerRepo } from '../masters/cash-drawers/repo.js';
import { ContractRepo } from '../platform/contracts/repo.js';
import { PaymentTerminalRepo } from '../masters/payment-terminals/repo.js';
import { TerminalRegistry } from '../masters/terminals/registry.js';
import type { DemoContext } from './context.js';

const TRANSACTION_EDITABLE_PLANS = ['premium_plus', 'food_business', 'retail_business'];

/**
 * The main store's registers: a parent register, a child register sharing its cash drawer
 * and, on Retail Business, a self-checkout terminal. Only what the contract's settings allow
 * is added (caps, CAT/CCT linkage), so the seed never trips a rule of 4.16.
 */
export function seedTerminals(deps: AppDeps, ctx: DemoContext): Record<string, number> {
  const contract = new ContractRepo(deps.db, deps.writer, deps.clock).find(ctx.contractId);
  if (!contract) throw new Error(`contract ${ctx.contractId} does not exist`);
  const drawers = new CashDrawerRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const devices = new PaymentTerminalRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const registry = new TerminalRegistry(deps.db, deps.writer, deps.ids, deps.clock);
  const { settings } = contract;
  const storeId = ctx.storeIds[0];
  const counts = { cashDrawers: 0, paymentTerminals: 0, terminals: 0 };

  return deps.writer.write(() => {
    let salesSeats = settings.maxSalesTerminals - registry.terminals.seatsHeld(ctx.contractId, 'sales', null);
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

    const drawer = drawers.create(ctx.contractId, { storeId, cashDrawerName: 'Drawer 1' });
    counts.cashDrawers++;

    let creditTerminalId: string | undefined;
    if (settings.catCctLinkage) {
      const cat = devices.create(ctx.contractId, { storeId, name: 'CAT 1', kind: 'CAT', deviceCode: 'CAT-0001' });
      creditTerminalId = String(cat.payment_terminal_id);
      counts.paymentTerminals++;
    }

    if (salesSeats < 1) return counts;
    const parent = registry.create(contract, {
      storeId,
      terminalName: 'Register 1',
      uuid: uuid(1),
      ...(TRANSACTION_EDITABLE_PLANS.includes(contract.plan) ? { transactionEditableFlag: '1' as const } : {}),
      ...(creditTerminalId ? { creditTerminalId } : {}),
    });
    counts.terminals++;
    salesSeats--;

    if (salesSeats < 1) return counts;
    registry.create(contract, {
      storeId,
      terminalName: 'Register 2',
      uuid: uuid(2),
      cashDrawerId: String(drawer.cash_drawer_id),
      parentTerminalId: String(parent.terminal_id),
    });
    counts.terminals++;
    salesSeats--;

    const selfCheckoutSeats = settings.maxSelfCheckoutTerminals - registry.terminals.seatsHeld(ctx.contractId, 'selfCheckout', null);
    if (contract.plan === 'retail_business' && salesSeats >= 1 && selfCheckoutSeats >= 1) {
      const smartIdSeats = settings.maxSmartIdEngines - registry.terminals.seatsHeld(ctx.contractId, 'smartIdEngine', null);
      registry.create(contract, {
        storeId,
        terminalName: 'Self-checkout 1',
        uuid: uuid(3),
        selfCheckoutAvailableFlag: '1',
        // Age checks at an unattended till are what a smart ID engine is bought for.
        ...(smartIdSeats >= 1 ? { smartIdEngineAvailableFlag: '1' as const } : {}),
      });
      counts.terminals++;
    }
    return counts;
  });
}
