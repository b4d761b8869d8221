import { ForbiddenError, InvalidInput } from '../../domain/errors.js';
import type { Plan } from '../../domain/plans.js';

/**
 * The rules of a role's function controls (役割・役職更新, PATCH /roles/{role_id}), pure: what a
 * body's controls make of the controls a role holds.
 */

/** The administrator role every contract has: it cannot be deleted nor limited in staff management. */
export const ADMIN_ROLE_ID = 1;

export type ControlKind = 'pos' | 'inventory' | 'alert';

/** A role's controls of one kind: function id (an alert's alertType) → control division. */
export type Controls = Map<number, string>;

export interface ControlInput {
  id: number;
  division: string;
}

/** POS function 2 (商品管理) and its own settings 2001–2012; function 7 (スタッフ管理) and 7001–7003. */
const PRODUCT_MANAGEMENT = 2;
const STAFF_MANAGEMENT = 7;
const PRODUCT_SETTINGS = range(2001, 2012);
const STAFF_SETTINGS = range(7001, 7003);
/** 7003 ログイン情報編集権限: given 4 (すべて) when staff management is set to 3 (編集). */
const LOGIN_EDIT = 7003;

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The function ids a kind of control names, as the platform's pages list them. */
export const FUNCTION_IDS: Record<ControlKind, readonly number[]> = {
  pos: [...range(1, 20), ...PRODUCT_SETTINGS, ...STAFF_SETTINGS],
  inventory: range(1, 12),
  alert: [1, 2],
};

/** The body's name of each kind of controls and of its id field. */
export const CONTROL_FIELDS: Record<ControlKind, { list: string; id: string }> = {
  pos: { list: 'functionControls', id: 'functionId' },
  inventory: { list: 'inventoryFunctionControls', id: 'functionId' },
  alert: { list: 'alertFunctionControls', id: 'alertType' },
};

/**
 * The controls of `kind` after a body's list: only the ids sent change; an id sent twice is a
 * 400; the administrator role's staff management (7 and 7001–7003) cannot be set. Function 2
 * (or 7) sent without some of its own settings gives those its division, except that 7 set to
 * 3 (編集) gives 7003 (login information) 4 (すべて), as the platform's page says.
 */
export function applyControls(kind: ControlKind, current: Controls, input: readonly ControlInput[], roleId: number): Controls {
  const field = CONTROL_FIELDS[kind];
  const sent = new Set<number>();
  input.forEach((c, i) => {
    const at = `${field.list}[${i}].${field.id}`;
    if (!FUNCTION_IDS[kind].includes(c.id)) throw InvalidInput.field(at, `${c.id} is not a ${field.id} of ${field.list}`);
    if (sent.has(c.id)) throw InvalidInput.field(at, `${c.id} is given twice`);
    if (kind === 'pos' && roleId === ADMIN_ROLE_ID && (c.id === STAFF_MANAGEMENT || STAFF_SETTINGS.includes(c.id))) {
      throw InvalidInput.field(at, `the administrator role (1) keeps staff management; function ${c.id} cannot be set on it`);
    }
    sent.add(c.id);
  });
  const next = new Map(current);
  for (const c of input) next.set(c.id, c.division);
  if (kind === 'pos') {
    const cascade = (parent: number, settings: number[], divisionOf: (id: number, division: string) => string) => {
      const division = input.find((c) => c.id === parent)?.division;
      if (division === undefined) return;
      for (const id of settings) if (!sent.has(id)) next.set(id, divisionOf(id, division));
    };
    cascade(PRODUCT_MANAGEMENT, PRODUCT_SETTINGS, (_, d) => d);
    cascade(STAFF_MANAGEMENT, STAFF_SETTINGS, (id, d) => (id === LOGIN_EDIT && d === '3' ? '4' : d));
  }
  return next;
}

/** Plans that hold inventory and alerts (the inventory and alert controls' pages name Retail Business). */
const INVENTORY_PLANS: readonly Plan[] = ['retail_business'];

/**
 * What a contract's plan lets a body set (403 otherwise): the inventory and alert controls are
 * Retail Business settings; on the Standard plan only the administrator role's controls may
 * change (its name and note are Premium and above fields, other roles Premium and above).
 */
export function assertPlanAllows(plan: Plan, roleId: number | null, body: Record<string, unknown>): void {
  for (const kind of ['inventory', 'alert'] as const) {
    const field = CONTROL_FIELDS[kind].list;
    if (body[field] !== undefined && !INVENTORY_PLANS.includes(plan)) throw ForbiddenError.field(field, `are a Retail Business setting; the contract's plan is ${plan}`);
  }
  if (plan !== 'standard') return;
  if (roleId !== ADMIN_ROLE_ID) throw ForbiddenError.field('role_id', 'on the standard plan only the administrator role (1) can be changed');
  for (const field of ['roleName', 'note']) {
    if (body[field] !== undefined) throw ForbiddenError.field(field, 'can be changed on the premium plan and above; the contract is on standard');
  }
}
