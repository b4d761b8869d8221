import type { Clock } from '../../clock.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { rightsFromColumn, rightsToColumn, type Right } from '../http/rights.js';

export interface StaffLogin {
  staffId: string;
  staffCode: string | null;
  /** The staff member's last working day (YYYY-MM-DD) or null. */
  terminationDate: string | null;
  passwordHash: string;
  rights: Right[];
}

/** The change entity of a login; the verified-token cache clears on it. */
export const STAFF_LOGIN_ENTITY = 'staff_login';

/** Back-office logins of staff members: a password hash and the rights it grants (SQL only). */
export class StaffLoginRepo {
  private readonly byStaff;
  private readonly byCode;
  private readonly upsert;
  private readonly revoke;
  private readonly updateRights;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly clock: Clock,
  ) {
    this.byStaff = db.prepare(
      `SELECT l.staff_id, s.staff_code, s.termination_date, l.password_hash, l.rights FROM staff_logins l
       JOIN staffs s ON s.contract_id = l.contract_id AND s.staff_id = l.staff_id
       WHERE l.contract_id = ? AND l.staff_id = ?`,
    );
    this.byCode = db.prepare(
      `SELECT l.staff_id, s.staff_code, s.termination_date, l.password_hash, l.rights FROM staffs s
       JOIN staff_logins l ON l.contract_id = s.contract_id AND l.staff_id = s.staff_id
       WHERE s.contract_id = ? AND s.staff_code = ?`,
    );
    this.upsert = db.prepare(
      `INSERT INTO staff_logins (contract_id, staff_id, password_hash, rights, ins_at, upd_at)
       VALUES (@contractId, @staffId, @passwordHash, @rights, @now, @now)
       ON CONFLICT (contract_id, staff_id) DO UPDATE SET password_hash = @passwordHash, rights = @rights, upd_at = @now`,
    );
    this.updateRights = db.prepare('UPDATE staff_logins SET rights = ?, upd_at = ? WHERE contract_id = ? AND staff_id = ?');
    this.revoke = db.prepare('DELETE FROM access_tokens WHERE contract_id = ? AND staff_id = ?');
  }

  find(contractId: string, staffId: string): StaffLogin | undefined {
    return toLogin(this.byStaff.get(contractId, staffId) as LoginRow | undefined);
  }

  /** The login of the staff member whose staffCode is `username`; undefined when none. */
  findByStaffCode(contractId: string, staffCode: string): StaffLogin | undefined {
    return toLogin(this.byCode.get(contractId, staffCode) as LoginRow | undefined);
  }

  /**
   * Sets the password (already hashed) and, when given, the rights; rights not given are kept
   * (none for a first login). A new password revokes the user tokens issued under the old one.
   */
  set(contractId: string, staffId: string, passwordHash: string, rights?: readonly Right[]): StaffLogin {
    return this.writer.write(() => {
      const current = this.find(contractId, staffId);
      this.upsert.run({
        contractId,
        staffId,
        passwordHash,
        rights: rightsToColumn(rights ?? current?.rights ?? []),
        now: this.clock.now().getTime(),
      });
      this.revoke.run(contractId, staffId);
      this.writer.changed({ contractId, entity: STAFF_LOGIN_ENTITY, id: staffId, op: current ? 'update' : 'insert' });
      return this.find(contractId, staffId)!;
    });
  }

  /**
   * Changes only the rights of an existing login (undefined when the staff member has none).
   * Tokens already issued stay valid and carry the new rights from their next request.
   */
  setRights(contractId: string, staffId: string, rights: readonly Right[]): StaffLogin | undefined {
    return this.writer.write(() => {
      if (!this.find(contractId, staffId)) return undefined;
      this.updateRights.run(rightsToColumn(rights), this.clock.now().getTime(), contractId, staffId);
      this.writer.changed({ contractId, entity: STAFF_LOGIN_ENTITY, id: staffId, op: 'update' });
      return this.find(contractId, staffId);
    });
  }
}

interface LoginRow {
  staff_id: number;
  staff_code: string | null;
  termination_date: string | null;
  password_hash: string;
  rights: string;
}

const toLogin = (row: LoginRow | undefined): StaffLogin | undefined =>
  row && {
    staffId: String(row.staff_id),
    staffCode: row.staff_code,
    terminationDate: row.termination_date,
    passwordHash: row.password_hash,
    rights: rightsFromColumn(row.rights),
  };
