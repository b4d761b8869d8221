import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { ConflictError, InvalidInput, NotFoundError } from '../../domain/errors.js';
import { formatDecimal } from '../../domain/money.js';
import { dayBefore, japanDate, type TaxRates } from '../../domain/tax.js';
import type { Page } from '../../platform/http/paging.js';
import type { CONSUMPTION_TAX_RATE_SORT, CreateConsumptionTaxRate, CreateReduceTaxRate, ListConsumptionTaxRatesQuery, ListReduceTaxRatesQuery, REDUCE_TAX_RATE_SORT } from './schema.js';

export interface ConsumptionTaxRateRow {
  contract_id: string;
  apply_start_date: string;
  tax_rate: string;
  ins_at: number;
  upd_at: number;
}

export interface ReduceTaxRateRow {
  contract_id: string;
  reduce_tax_id: number;
  term_start: string;
  term_end: string | null;
  name: string;
  division: '1' | '2';
  rate: string;
  condition_names: string | null;
  advanced_condition: '0' | '1' | null;
  ins_at: number;
  upd_at: number;
}

/** The fixed reduced-rate setting whose periods are "the reduced rate" the totals use (特定商品の軽減税率). */
export const REDUCED_RATE_ID = 10000001;

/**
 * A rate change is for days to come: a sale already made keeps the rate of its day, and a day
 * that has begun in Japan may already have sales (the new period starts tomorrow at the earliest).
 */
function assertFuture(field: string, day: string, now: number): void {
  const today = japanDate(now);
  if (day <= today) throw InvalidInput.field(field, `must be a day after today (${today}, Japan time): a rate change applies to sales to come, never to days that have begun`);
}

type ConsumptionSort = (typeof CONSUMPTION_TAX_RATE_SORT)[number];
const CONSUMPTION_SORT: Record<ConsumptionSort, string> = { applyStartDate: 'apply_start_date' };

/** The standard rate's periods (consumption_tax_rates). */
export class ConsumptionTaxRateRepo extends MasterRepo<ConsumptionTaxRateRow, ConsumptionSort> {
  private readonly latest;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'consumption_tax_rate', columns: {}, sort: CONSUMPTION_SORT, noun: 'consumption tax rate starting', param: 'apply_start_date' });
    this.latest = db.prepare('SELECT max(apply_start_date) FROM consumption_tax_rates WHERE contract_id = ?').pluck();
  }

  /** Every period, or with target_date the one in force that day. */
  list(contractId: string, query: ListConsumptionTaxRatesQuery, page: Page<ConsumptionSort>): ConsumptionTaxRateRow[] {
    return this.selectWhere(
      contractId,
      [
        [
          'apply_start_date = (SELECT max(p.apply_start_date) FROM consumption_tax_rates p WHERE p.contract_id = consumption_tax_rates.contract_id AND p.apply_start_date <= ?)',
          query.target_date,
        ],
      ],
      page,
    );
  }

  /** A new period after every existing one, starting on a day to come. */
  create(contractId: string, input: CreateConsumptionTaxRate): ConsumptionTaxRateRow {
    return this.writer.write(() => {
      assertFuture('applyStartDate', input.applyStartDate, this.now());
      if (this.find(contractId, input.applyStartDate)) {
        throw ConflictError.field('applyStartDate', `a consumption tax rate starting ${input.applyStartDate} already exists`);
      }
      const latest = this.latest.get(contractId) as string | null;
      if (latest !== null && input.applyStartDate < latest) {
        throw InvalidInput.field('applyStartDate', `must be after the latest period's start (${latest}): a change is added after the rates already planned`);
      }
      this.insertRow(contractId, { apply_start_date: input.applyStartDate, tax_rate: formatDecimal(input.taxRate) });
      return this.get(contractId, input.applyStartDate);
    });
  }

  /** Withdraws a planned period (a mistake, a change called off) before its day begins. */
  delete(contractId: string, applyStartDate: string): void {
    this.writer.write(() => {
      const period = this.get(contractId, applyStartDate);
      assertFuture('apply_start_date', applyStartDate, this.now());
      this.deleteRow(contractId, period);
    });
  }
}

type ReduceSort = (typeof REDUCE_TAX_RATE_SORT)[number];
const REDUCE_SORT: Record<ReduceSort, string> = {
  reduceTaxId: 'reduce_tax_id',
  division: 'division',
  // An exact decimal kept as text: ordered by its value, not its spelling ("10" after "8");
  // NUMERIC is exact on PostgreSQL (REAL is 4-byte float there) and orders as REAL on SQLite.
  rate: 'CAST(rate AS NUMERIC)',
  termStart: 'term_start',
  termEnd: 'term_end',
};

/** The fixed reduced-rate settings' periods (reduce_tax_rates). */
export class ReduceTaxRateRepo extends MasterRepo<ReduceTaxRateRow, ReduceSort> {
  private readonly open;
  private readonly closePeriod;
  private readonly byStart;
  private readonly endedOn;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'reduce_tax_rate', columns: {}, sort: REDUCE_SORT, noun: 'reduced tax rate period', param: 'reduce_tax_id/term_start' });
    this.open = db.prepare('SELECT * FROM reduce_tax_rates WHERE contract_id = ? AND term_end IS NULL ORDER BY reduce_tax_id');
    this.closePeriod = db.prepare('UPDATE reduce_tax_rates SET term_end = ?, upd_at = ? WHERE contract_id = ? AND reduce_tax_id = ? AND term_start = ?');
    this.byStart = db.prepare('SELECT * FROM reduce_tax_rates WHERE contract_id = ? AND term_start = ? LIMIT 1');
    this.endedOn = db.prepare('SELECT * FROM reduce_tax_rates WHERE contract_id = ? AND reduce_tax_id = ? AND term_end = ?');
  }

  list(contractId: string, query: ListReduceTaxRatesQuery, page: Page<ReduceSort>): ReduceTaxRateRow[] {
    return this.selectWhere(
      contractId,
      [
        ['reduce_tax_id = ?', query.reduce_tax_id === undefined ? undefined : Number(query.reduce_tax_id)],
        ['division = ?', query.division],
        ['term_start <= ?', query.target_date],
        ['(term_end IS NULL OR term_end >= ?)', query.target_date],
      ],
      page,
    );
  }

  /**
   * A change of the reduced rate from a day to come: each fixed setting's open period ends the
   * day before and a new one opens with the new rate (its name, division and choices kept).
   * Answers the new periods.
   */
  create(contractId: string, input: CreateReduceTaxRate): ReduceTaxRateRow[] {
    return this.writer.write(() => {
      const now = this.now();
      assertFuture('termStart', input.termStart, now);
      const open = this.open.all(contractId) as ReduceTaxRateRow[];
      for (const period of open) {
        if (period.term_start === input.termStart) {
          throw ConflictError.field('termStart', `a reduced tax rate period starting ${input.termStart} already exists`);
        }
        if (period.term_start > input.termStart) {
          throw InvalidInput.field('termStart', `must be after the latest period's start (${period.term_start}): a change is added after the rates already planned`);
        }
      }
      const made: string[] = [];
      for (const period of open) {
        this.closePeriod.run(dayBefore(input.termStart), now, contractId, period.reduce_tax_id, period.term_start);
        this.changed(contractId, this.idOf(period), 'update');
        made.push(
          this.insertRow(
            contractId,
            {
              reduce_tax_id: period.reduce_tax_id,
              term_start: input.termStart,
              name: period.name,
              division: period.division,
              rate: formatDecimal(input.rate),
              condition_names: period.condition_names,
              advanced_condition: period.advanced_condition,
            },
            now,
          ),
        );
      }
      return made.map((id) => this.get(contractId, id));
    });
  }

  /**
   * Withdraws a planned change before its day begins: the periods it opened go and the ones it
   * ended are open again. Only the latest change can go (an earlier one is ended by the next).
   */
  withdraw(contractId: string, termStart: string): void {
    this.writer.write(() => {
      const now = this.now();
      const open = this.open.all(contractId) as ReduceTaxRateRow[];
      const planned = open.filter((p) => p.term_start === termStart);
      if (planned.length === 0) {
        const ended = this.byStart.get(contractId, termStart) as ReduceTaxRateRow | undefined;
        if (ended) throw InvalidInput.field('term_start', `the change of ${termStart} is followed by a later one; withdraw that one first`);
        throw NotFoundError.field('term_start', `no reduced tax rate change starts on ${termStart}`);
      }
      assertFuture('term_start', termStart, now);
      const lastDay = dayBefore(termStart);
      for (const period of planned) {
        this.deleteRow(contractId, period);
        const before = this.endedOn.get(contractId, period.reduce_tax_id, lastDay) as ReduceTaxRateRow | undefined;
        if (before) {
          this.closePeriod.run(null, now, contractId, before.reduce_tax_id, before.term_start);
          this.changed(contractId, this.idOf(before), 'update');
        }
      }
    });
  }
}

/**
 * The contract's rate periods as the tax rules take them (domain/tax.ts): the standard rate's,
 * and the reduced rate's (REDUCED_RATE_ID's periods). Sales registration and the inventory
 * records read them here and pass them to the pure rules.
 */
export class TaxRateBook {
  private readonly standard;
  private readonly reduced;

  constructor(db: Sqlite) {
    this.standard = db.prepare('SELECT apply_start_date AS "from", tax_rate AS rate FROM consumption_tax_rates WHERE contract_id = ? ORDER BY apply_start_date');
    this.reduced = db.prepare(
      `SELECT term_start AS "from", term_end AS until, rate FROM reduce_tax_rates WHERE contract_id = ? AND reduce_tax_id = ${REDUCED_RATE_ID} ORDER BY term_start`,
    );
  }

  ratesOf(contractId: string): TaxRates {
    return { standard: this.standard.all(contractId) as TaxRates['standard'], reduced: this.reduced.all(contractId) as TaxRates['reduced'] };
  }
}
