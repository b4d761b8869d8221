import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../db/open.js';
import { HEADER_FIELDS } from './catalog.js';

const COLUMN = new Map(HEADER_FIELDS.map((f) => [f.name, f.column]));
/** The header fields a member change may write (a fixed list: no client key reaches the SQL). */
const MEMBER_FIELDS = [
  'customerId',
  'customerRank',
  'customerGroupId',
  'customerGroupId2',
  'customerGroupId3',
  'customerGroupId4',
  'customerGroupId5',
  'customerPinCode',
  'newPoint',
  'point',
  'totalPoint',
  'currentMile',
  'earnMile',
  'adjustmentMile',
  'totalMile',
] as const;
export type MemberField = (typeof MEMBER_FIELDS)[number];

/** SQL of a transaction's member fields. */
export class TransactionCustomerRepo {
  private readonly updates = new Map<string, Statement>();

  constructor(private readonly db: Sqlite) {}

  /** Writes the member fields given (storage values), points_applied and upd_at of one transaction. */
  setMember(contractId: string, transactionHeadId: number, values: Partial<Record<MemberField, string | number | null>>, pointsApplied: boolean, now: number): void {
    const names = MEMBER_FIELDS.filter((f) => values[f] !== undefined);
    const sets = names.map((f) => `${COLUMN.get(f)!} = @${f}`);
    const sql = `UPDATE transactions SET ${[...sets, 'points_applied = @pointsApplied', 'upd_at = @now'].join(', ')}
      WHERE contract_id = @contractId AND transaction_head_id = @transactionHeadId`;
    let statement = this.updates.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.updates.set(sql, statement);
    }
    statement.run({ ...values, pointsApplied: pointsApplied ? '1' : '0', now, contractId, transactionHeadId });
  }
}
