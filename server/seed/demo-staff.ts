import type { AppDeps } from '../deps.js';
import { RIGHTS } from '../platform/http/rights.js';
import { hashPasswordSync } from '../platform/auth/password.js';
import { StaffLoginRepo } from '../platform/auth/staff-logins.js';
import { StaffRankRepo } from '../masters/staff-ranks/repo.js';
import type { CreateStaffRank } from '../masters/staff-ranks/schema.js';
import { StaffRepo } from '../masters/staffs/repo.js';
import type { CreateStaff } from '../masters/staffs/schema.js';
import type { DemoContext } from './context.js';

/**
 * The demo manager's back-office login, printed in the README so a user token can be tried
 * at once (`grant_type=password&username=S001&password=demo-pass-1`). Demo data only.
 */
export const DEMO_STAFF_USERNAME = 'S001';
export const DEMO_STAFF_PASSWORD = 'demo-pass-1';

const STAFF: CreateStaff[] = [
  {
    staffName: '佐藤 花子', staffKana: 'サトウ\u3000ハナコ', staffCode: DEMO_STAFF_USERNAME, gender: '1', dashboardType: 1,
    hireDate: '2019-04-01', passCode: '1234', displaySequence: 1, adminFlag: true, stampScreenDisplayFlag: true,
    roleInEmployeeList: 'Store manager',
  },
  {
    staffName: '鈴木 一郎', staffKana: 'スズキ\u3000イチロー', staffCode: 'S002', gender: '0', hireDate: '2022-10-01',
    passCode: '2345', displaySequence: 2, stampScreenDisplayFlag: true,
  },
  {
    staffName: 'Maria Garcia', staffKana: 'マリア・ガルシア', staffCode: 'S003', gender: '9', hireDate: '2025-04-01',
    displaySequence: 3, foreignerFlag: true, stampScreenDisplayFlag: true, personalWebStampScreenDisplayFlag: true, memo: 'Part-time, weekends',
  },
];

const RANKS: CreateStaffRank[] = [
  { staffRank: 'REGULAR', staffRankFullName: 'Regular staff', displaySequence: '1', staffDiscountRate: '10' },
  { staffRank: 'PART', staffRankFullName: 'Part-time staff', staffRankDisplayName: 'Part-time', displaySequence: '2', staffDiscountRate: '5' },
  {
    staffRank: 'MANAGER', staffRankFullName: 'Store manager', staffRankDisplayName: 'Manager', displaySequence: '3', staffDiscountRate: '15.5',
    useProductStaffDiscountRateDivision: '1', staffApplicationSellingPriceDivision: '1',
  },
];

/** Three staff members (S001, the store manager, with a password and every right) and three staff ranks. */
export function seedStaff(deps: AppDeps, ctx: DemoContext): Record<string, number> {
  const staffs = new StaffRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const logins = new StaffLoginRepo(deps.db, deps.writer, deps.clock);
  const ranks = new StaffRankRepo(deps.db, deps.writer, deps.clock);
  return deps.writer.write(() => {
    const [manager] = STAFF.map((input) => staffs.create(ctx.contractId, input));
    logins.set(ctx.contractId, String(manager!.staff_id), hashPasswordSync(DEMO_STAFF_PASSWORD), [...RIGHTS]);
    for (const rank of RANKS) ranks.create(ctx.contractId, rank);
    return { staffs: STAFF.length, staffLogins: 1, staffRanks: RANKS.length };
  });
}
