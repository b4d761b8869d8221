import type { Sqlite } from '../../db/open.js';

/** What setup asks of the database (SQL only). */
export class SetupRepo {
  private readonly anyContract;
  private readonly counts;

  constructor(db: Sqlite) {
    this.anyContract = db.prepare('SELECT 1 FROM contracts LIMIT 1');
    // The alias is quoted: PostgreSQL folds an unquoted name to lower case (stafflogins).
    this.counts = db.prepare(
      `SELECT (SELECT count(*) FROM stores WHERE contract_id = @c) AS stores,
              (SELECT count(*) FROM staffs WHERE contract_id = @c) AS staffs,
              (SELECT count(*) FROM staff_logins WHERE contract_id = @c) AS "staffLogins",
              (SELECT count(*) FROM products WHERE contract_id = @c) AS products`,
    );
  }

  /** Setup is for a data dir without any contract; the CLI's `contract create` or an earlier setup ends it. */
  hasContract(): boolean {
    return this.anyContract.get() !== undefined;
  }

  /** The masters a first pull has brought so far. */
  received(contractId: string): { stores: number; staffs: number; staffLogins: number; products: number } {
    return this.counts.get({ c: contractId }) as { stores: number; staffs: number; staffLogins: number; products: number };
  }
}
