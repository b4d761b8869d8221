import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import type { CreateStaff, ListStaffsQuery, UpdateStaff } from './schema.js';

export interface StaffRow {
  contract_id: string;
  staff_id: number;
  staff_name: string;
  staff_kana: string | null;
  gender: '0' | '1' | '9';
  birthday: string | null;
  post_code: string | null;
  address: string | null;
  phone: string | null;
  employee_classification_id: number | null;
  dashboard_type: number;
  staff_code: string | null;
  hire_date: string | null;
  termination_date: string | null;
  termination_reason: string | null;
  role_in_employee_list: string | null;
  career: string | null;
  pass_code: string | null;
  display_sequence: number | null;
  memo: string | null;
  admin_memo: string | null;
  admin_flag: number;
  foreigner_flag: number;
  stamp_screen_display_flag: number;
  personal_web_stamp_screen_display_flag: number;
  ins_at: number;
  upd_at: number;
}

/** API field → column, for every writable field of spec 2.3. */
const COLUMNS = {
  staffName: 'staff_name',
  staffKana: 'staff_kana',
  gender: 'gender',
  birthday: 'birthday',
  postCode: 'post_code',
  address: 'address',
  phone: 'phone',
  employeeClassificationId: 'employee_classification_id',
  dashboardType: 'dashboard_type',
  staffCode: 'staff_code',
  hireDate: 'hire_date',
  terminationDate: 'termination_date',
  terminationReason: 'termination_reason',
  roleInEmployeeList: 'role_in_employee_list',
  career: 'career',
  passCode: 'pass_code',
  displaySequence: 'display_sequence',
  memo: 'memo',
  adminMemo: 'admin_memo',
  adminFlag: 'admin_flag',
  foreignerFlag: 'foreigner_flag',
  stampScreenDisplayFlag: 'stamp_screen_display_flag',
  personalWebStampScreenDisplayFlag: 'personal_web_stamp_screen_display_flag',
} as const;
const FLAGS = ['adminFlag', 'foreignerFlag', 'stampScreenDisplayFlag', 'personalWebStampScreenDisplayFlag'] as const;
const SORT_COLUMNS = {
  staffId: 'staff_id',
  staffCode: 'staff_code',
  staffKana: 'staff_kana',
  displaySequence: 'display_sequence',
  hireDate: 'hire_date',
};

/** Booleans are stored as 0/1 (STRICT tables have no boolean type). */
function toColumnValues(input: Partial<UpdateStaff>): Record<string, unknown> {
  const values: Record<string, unknown> = { ...input };
  for (const f of FLAGS) if (input[f] !== undefined) values[f] = input[f] ? 1 : 0;
  return values;
}

export class StaffRepo extends MasterRepo<StaffRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'staff', columns: COLUMNS, sort: SORT_COLUMNS });
    this.byCode = db.prepare('SELECT staff_id FROM staffs WHERE contract_id = ? AND staff_code = ?');
  }

  create(contractId: string, input: CreateStaff): StaffRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.staffCode ?? null, null);
      assertDates(input.hireDate ?? null, input.terminationDate ?? null);
      const defaults = { gender: '9' as const, dashboardType: 0 as const, adminFlag: false, foreignerFlag: false, stampScreenDisplayFlag: false, personalWebStampScreenDisplayFlag: false };
      const values = toColumnValues({ ...defaults, ...input });
      const row = Object.fromEntries(Object.entries(COLUMNS).map(([k, column]) => [column, values[k] ?? null]));
      const id = this.insertRow(contractId, { staff_id: this.ids.next('staffs'), ...row });
      return this.get(contractId, id);
    });
  }

  /** Spec 4.4: only the keys sent change; the merged record must still satisfy the rules. */
  update(contractId: string, staffId: string, patch: UpdateStaff): StaffRow {
    return this.writer.write(() => {
      const current = this.get(contractId, staffId);
      if (patch.staffCode !== undefined) this.assertCodeFree(contractId, patch.staffCode, current.staff_id);
      const hire = patch.hireDate === undefined ? current.hire_date : patch.hireDate;
      const termination = patch.terminationDate === undefined ? current.termination_date : patch.terminationDate;
      assertDates(hire, termination);
      this.updateFields(contractId, current, toColumnValues(patch));
      return this.get(contractId, staffId);
    });
  }

  list(contractId: string, query: ListStaffsQuery, page: Page<keyof typeof SORT_COLUMNS>): StaffRow[] {
    const filters = { staff_code: query.staff_code, gender: query.gender };
    return this.select(contractId, filters, page);
  }

  private assertCodeFree(contractId: string, code: string | null, selfId: number | null): void {
    if (code === null) return;
    const other = this.byCode.get(contractId, code) as { staff_id: number } | undefined;
    if (other && other.staff_id !== selfId) {
      throw InvalidInput.field('staffCode', `staff code ${code} is already used by staff ${other.staff_id}`);
    }
  }
}

/** YYYY-MM-DD strings compare as dates. A staff member cannot leave before joining. */
function assertDates(hireDate: string | null, terminationDate: string | null): void {
  if (hireDate !== null && terminationDate !== null && terminationDate < hireDate) {
    throw InvalidInput.field('terminationDate', `${terminationDate} is before the hire date ${hireDate}`);
  }
}
