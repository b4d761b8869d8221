import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Plan } from '../../domain/plans.js';
import { ForbiddenError, InvalidInput } from '../../domain/errors.js';
import { CashDrawerRepo } from '../cash-drawers/repo.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { assertCatCctLinkage } from '../payment-terminals/linkage.js';
import { PaymentTerminalRepo } from '../payment-terminals/repo.js';
import { StoreRepo } from '../stores/repo.js';
import { TerminalRepo, valuesOf, type Seat, type TerminalRow, type TerminalValues } from './repo.js';
import type { CreateTerminal, UpdateTerminal } from './schema.js';

/** Spec 2.11: fields that only some plans may switch on (§7: 403 for a field the plan cannot use). */
const PLAN_LIMITED_FLAGS: [field: 'transactionEditableFlag' | 'selfCheckoutAvailableFlag', what: string, plans: readonly Plan[]][] = [
  ['transactionEditableFlag', 'transaction editing', ['premium_plus', 'food_business', 'retail_business']],
  ['selfCheckoutAvailableFlag', 'self-checkout terminals', ['retail_business']],
];

/** §8 caps: the setting that caps a seat, the field a client changes to need no seat, its name. */
const SEATS: [seat: Seat, cap: keyof Contract['settings'], field: keyof TerminalValues, what: string][] = [
  ['sales', 'maxSalesTerminals', 'useStopDivision', 'sales terminal'],
  ['selfCheckout', 'maxSelfCheckoutTerminals', 'selfCheckoutAvailableFlag', 'self-checkout terminal'],
  ['smartIdEngine', 'maxSmartIdEngines', 'smartIdEngineAvailableFlag', 'smart ID engine'],
];

/** A terminal holds a seat while in use: every terminal a sales seat, flagged ones also theirs. */
export function holdsSeat(t: TerminalValues, seat: Seat): boolean {
  if (t.useStopDivision !== '0') return false;
  if (seat === 'selfCheckout') return t.selfCheckoutAvailableFlag === '1';
  if (seat === 'smartIdEngine') return t.smartIdEngineAvailableFlag === '1';
  return true;
}

const idOf = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** The body's keys as stored values (ids as numbers); keys not sent stay absent. */
function changesOf(body: UpdateTerminal): Partial<TerminalValues> {
  const out: Partial<TerminalValues> = {};
  for (const [key, value] of Object.entries(body) as [keyof UpdateTerminal, string | null | undefined][]) {
    if (value === undefined) continue;
    const idField = key === 'storeId' || key === 'creditTerminalId' || key === 'cashDrawerId' || key === 'parentTerminalId';
    (out as Record<string, unknown>)[key] = idField ? idOf(value) : value;
  }
  return out;
}

/**
 * Registers and updates register terminals under the rules of 4.16. A PATCH applies the same
 * rules to the keys it sends (and to what a store move would break). Order of the checks, so
 * that the first failing one answers:
 *   1. 403, what the contract may not use at all: plan-limited flags sent as 1, then
 *      creditTerminalId without the CAT/CCT linkage (before the path's 404 on PATCH);
 *   2. 404 the terminal of the path (PATCH);
 *   3. 400 in field order: storeId (exists, not suspended, no children left behind), uuid,
 *      creditTerminalId, cashDrawerId, parentTerminalId;
 *   4. 400 the caps (sales, self-checkout, smart ID engine), last, so a request that is wrong
 *      anyway never tells the shop to buy seats.
 */
export class TerminalRegistry {
  readonly terminals: TerminalRepo;
  private readonly stores: StoreRepo;
  private readonly drawers: CashDrawerRepo;
  private readonly devices: PaymentTerminalRepo;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    clock: Clock,
  ) {
    this.terminals = new TerminalRepo(db, writer, clock);
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.drawers = new CashDrawerRepo(db, writer, ids, clock);
    this.devices = new PaymentTerminalRepo(db, writer, ids, clock);
  }

  create(contract: Contract, input: CreateTerminal): TerminalRow {
    return this.writer.write(() => {
      this.assertContractMayUse(contract, input);
      const next: TerminalValues = {
        storeId: Number(input.storeId),
        terminalName: input.terminalName,
        uuid: input.uuid ?? null,
        useStopDivision: input.useStopDivision ?? '0',
        transactionEditableFlag: input.transactionEditableFlag ?? '0',
        selfCheckoutAvailableFlag: input.selfCheckoutAvailableFlag ?? '0',
        smartIdEngineAvailableFlag: input.smartIdEngineAvailableFlag ?? '0',
        creditTerminalId: idOf(input.creditTerminalId),
        cashDrawerId: idOf(input.cashDrawerId),
        parentTerminalId: idOf(input.parentTerminalId),
      };
      this.assertRules(contract, null, input, next);
      const terminalId = this.ids.next('terminals');
      this.terminals.insert(contract.contractId, terminalId, next);
      return this.terminals.get(contract.contractId, terminalId);
    });
  }

  update(contract: Contract, terminalId: string, patch: UpdateTerminal): TerminalRow {
    return this.writer.write(() => {
      const found = this.terminals.find(contract.contractId, terminalId);
      this.assertContractMayUse(contract, patch, found && valuesOf(found));
      const current = this.terminals.get(contract.contractId, terminalId);
      const changes = changesOf(patch);
      this.assertRules(contract, current, patch, { ...valuesOf(current), ...changes });
      this.terminals.update(contract.contractId, current, changes);
      return this.terminals.get(contract.contractId, current.terminal_id);
    });
  }

  /**
   * 403s for what the plan or contract cannot use. A PATCH that sends back a value the
   * terminal already has is not a new use: a client that echoes the whole terminal can still
   * edit it after a plan change or the end of the CAT/CCT linkage.
   */
  private assertContractMayUse(contract: Contract, sent: UpdateTerminal, current?: TerminalValues): void {
    for (const [field, what, plans] of PLAN_LIMITED_FLAGS) {
      if (sent[field] === '1' && current?.[field] !== '1' && !plans.includes(contract.plan)) {
        throw ForbiddenError.field(field, `the contract's plan ${contract.plan} cannot use ${what} (plans: ${plans.join(', ')})`);
      }
    }
    const credit = idOf(sent.creditTerminalId);
    if (credit !== null && credit !== current?.creditTerminalId) assertCatCctLinkage(contract.settings, 'creditTerminalId');
  }

  private assertRules(contract: Contract, current: TerminalRow | null, sent: UpdateTerminal, next: TerminalValues): void {
    const contractId = contract.contractId;
    const selfId = current?.terminal_id ?? null;
    const storeMoved = current !== null && next.storeId !== current.store_id;

    // A suspended store takes no new terminal, but its own terminals stay editable (e.g. stopped).
    if (sent.storeId !== undefined && (current === null || storeMoved)) {
      const store = this.stores.referenced(contractId, sent.storeId, { open: true });
      const children = storeMoved ? this.terminals.children(contractId, selfId!) : [];
      if (children.length) {
        throw InvalidInput.field('storeId', `terminal ${selfId} is the parent of terminal ${children.join(', ')}, which stay in store ${current!.store_id}`);
      }
    }

    if (sent.uuid) {
      const other = this.terminals.findByUuid(contractId, sent.uuid);
      if (other && other.terminal_id !== selfId) throw InvalidInput.field('uuid', `uuid ${sent.uuid} is already used by terminal ${other.terminal_id}`);
    }

    if (next.creditTerminalId !== null && sent.creditTerminalId) {
      if (!this.devices.find(contractId, next.creditTerminalId)) {
        throw InvalidInput.field('creditTerminalId', `payment terminal ${sent.creditTerminalId} does not exist`);
      }
      const user = this.terminals.findByCreditTerminal(contractId, next.creditTerminalId);
      if (user && user.terminal_id !== selfId) {
        throw InvalidInput.field('creditTerminalId', `payment terminal ${next.creditTerminalId} is already linked to terminal ${user.terminal_id}`);
      }
    }

    if (next.cashDrawerId !== null && (sent.cashDrawerId || storeMoved)) {
      const drawer = this.drawers.find(contractId, next.cashDrawerId);
      if (!drawer) throw InvalidInput.field('cashDrawerId', `cash drawer ${sent.cashDrawerId} does not exist`);
      if (drawer.store_id !== next.storeId) {
        const kept = sent.cashDrawerId ? '' : "; send the terminal's new cashDrawerId (or null) with storeId";
        throw InvalidInput.field('cashDrawerId', `cash drawer ${drawer.cash_drawer_id} belongs to store ${drawer.store_id}, not to store ${next.storeId}${kept}`);
      }
      if (drawer.use_stop_division !== '0') throw InvalidInput.field('cashDrawerId', `cash drawer ${drawer.cash_drawer_id} is not usable (useStopDivision 1)`);
    }

    if (next.parentTerminalId !== null && (sent.parentTerminalId || storeMoved)) {
      if (next.parentTerminalId === selfId) throw InvalidInput.field('parentTerminalId', `terminal ${selfId} cannot be its own parent`);
      const parent = this.terminals.find(contractId, next.parentTerminalId);
      if (!parent) throw InvalidInput.field('parentTerminalId', `terminal ${sent.parentTerminalId} does not exist`);
      if (parent.store_id !== next.storeId) {
        const kept = sent.parentTerminalId ? '' : "; send the terminal's new parentTerminalId (or null) with storeId";
        throw InvalidInput.field('parentTerminalId', `terminal ${parent.terminal_id} belongs to store ${parent.store_id}, not to store ${next.storeId}${kept}`);
      }
      if (parent.parent_terminal_id !== null) {
        throw InvalidInput.field('parentTerminalId', `terminal ${parent.terminal_id} is itself the child of terminal ${parent.parent_terminal_id}`);
      }
      const children = selfId === null ? [] : this.terminals.children(contractId, selfId);
      if (children.length) {
        throw InvalidInput.field('parentTerminalId', `terminal ${selfId} is the parent of terminal ${children.join(', ')}, so it cannot have a parent`);
      }
    }

    // A PATCH is checked only for the seats it makes the terminal take, so renaming a
    // terminal still works after the operator lowered a cap below what is in use.
    const before = current && valuesOf(current);
    for (const [seat, capSetting, field, what] of SEATS) {
      if (!holdsSeat(next, seat) || (before && holdsSeat(before, seat))) continue;
      const held = this.terminals.seatsHeld(contractId, seat, selfId);
      const cap = contract.settings[capSetting] as number;
      if (held >= cap) {
        throw InvalidInput.field(field, `the contract's ${what} cap of ${cap} is reached (${held} in use)${seat === 'sales' ? '; register it with useStopDivision 1 or stop another terminal' : ''}`);
      }
    }
  }
}
