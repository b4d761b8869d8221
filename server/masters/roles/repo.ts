import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { ADMIN_ROLE_ID, applyControls, CONTROL_FIELDS, type ControlInput, type ControlKind, type Controls } from './rules.js';
import type { CreateRole, ListRolesQuery, ROLE_SORT, UpdateRole } from './schema.js';

export interface RoleRow {
  contract_id: string;
  role_id: number;
  role_name: string;
  note: string | null;
  ins_at: number;
  upd_at: number;
}

/** A role with its function controls, by kind. */
export type RoleRecord = RoleRow & { controls: Record<ControlKind, Controls> };

type Sort = (typeof ROLE_SORT)[number];
const COLUMNS = { roleName: 'role_name', note: 'note' };
const SORT_COLUMNS: Record<Sort, string> = { roleId: 'role_id', updDateTime: 'upd_at' };
const KINDS: readonly ControlKind[] = ['pos', 'inventory', 'alert'];

type Body = Partial<Record<'functionControls' | 'inventoryFunctionControls' | 'alertFunctionControls', { functionId?: number; alertType?: number; controlDivision: string }[]>>;

/** The controls a body sends, by kind (undefined: that kind is not sent). */
function sentControls(body: Body): Partial<Record<ControlKind, ControlInput[]>> {
  const out: Partial<Record<ControlKind, ControlInput[]>> = {};
  for (const kind of KINDS) {
    const list = body[CONTROL_FIELDS[kind].list as keyof Body];
    if (list) out[kind] = list.map((c) => ({ id: (c.functionId ?? c.alertType)!, division: c.controlDivision }));
  }
  return out;
}

/** Staff roles (役割・役職, /roles) and their function controls (child rows of role_function_controls). */
export class RoleRepo extends MasterRepo<RoleRow, Sort> {
  private readonly controlsOf;
  private readonly deleteControls;
  private readonly deleteKind;
  private readonly insertControl;

  constructor(
    db: Sqlite,
    writer: Writer,
    private readonly ids: IdAllocator,
    clock: Clock,
  ) {
    super(db, writer, clock, { entity: 'role', columns: COLUMNS, sort: SORT_COLUMNS });
    this.controlsOf = db.prepare('SELECT kind, function_id, control_division FROM role_function_controls WHERE contract_id = ? AND role_id = ? ORDER BY kind, function_id');
    this.deleteControls = db.prepare('DELETE FROM role_function_controls WHERE contract_id = ? AND role_id = ?');
    this.deleteKind = db.prepare('DELETE FROM role_function_controls WHERE contract_id = ? AND role_id = ? AND kind = ?');
    this.insertControl = db.prepare('INSERT INTO role_function_controls (contract_id, role_id, kind, function_id, control_division) VALUES (?, ?, ?, ?, ?)');
  }

  /** The role with its controls, or 404 naming role_id. */
  record(contractId: string, roleId: string | number): RoleRecord {
    const row = this.get(contractId, roleId);
    const controls: Record<ControlKind, Controls> = { pos: new Map(), inventory: new Map(), alert: new Map() };
    for (const c of this.controlsOf.all(contractId, row.role_id) as { kind: ControlKind; function_id: number; control_division: string }[]) {
      controls[c.kind].set(c.function_id, c.control_division);
    }
    return { ...row, controls };
  }

  list(contractId: string, _query: ListRolesQuery, page: Page<Sort>): RoleRow[] {
    return this.select(contractId, {}, page);
  }

  create(contractId: string, input: CreateRole): RoleRecord {
    return this.writer.write(() => {
      const roleId = Number(this.ids.next('roles'));
      const sent = sentControls(input);
      const empty: Controls = new Map();
      const controls = Object.fromEntries(KINDS.map((k) => [k, applyControls(k, empty, sent[k] ?? [], roleId)])) as Record<ControlKind, Controls>;
      this.insertRow(contractId, { role_id: roleId, role_name: input.roleName, note: input.note ?? null });
      for (const kind of KINDS) this.writeKind(contractId, roleId, kind, controls[kind]);
      return this.record(contractId, roleId);
    });
  }

  update(contractId: string, roleId: string, patch: UpdateRole): RoleRecord {
    return this.writer.write(() => {
      const current = this.record(contractId, roleId);
      const sent = sentControls(patch);
      const values: Record<string, unknown> = { roleName: patch.roleName, note: patch.note };
      for (const key of Object.keys(values)) if (values[key] === undefined) delete values[key];
      // A change of the controls alone still stamps the role and reports it (its child rows travel with it).
      if (Object.keys(values).length === 0) values.roleName = current.role_name;
      for (const kind of KINDS) {
        const input = sent[kind];
        if (input) this.writeKind(contractId, current.role_id, kind, applyControls(kind, current.controls[kind], input, current.role_id));
      }
      this.updateFields(contractId, current, values);
      return this.record(contractId, roleId);
    });
  }

  /** The administrator role cannot be deleted (400, as the platform answers). */
  delete(contractId: string, roleId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, roleId);
      if (current.role_id === ADMIN_ROLE_ID) throw InvalidInput.field('role_id', 'the administrator role (1) cannot be deleted');
      this.deleteControls.run(contractId, current.role_id);
      this.deleteRow(contractId, current);
    });
  }

  private writeKind(contractId: string, roleId: number, kind: ControlKind, controls: Controls): void {
    this.deleteKind.run(contractId, roleId, kind);
    for (const [functionId, division] of [...controls].sort(([a], [b]) => a - b)) this.insertControl.run(contractId, roleId, kind, functionId, division);
  }
}
