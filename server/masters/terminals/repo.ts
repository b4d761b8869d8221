import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../clock.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Page } from '../../platform/http/paging.js';
import type { ListTerminalsQuery } from './schema.js';

export interface TerminalRow {
  contract_id: string;
  terminal_id: number;
  store_id: number;
  terminal_name: string;
  uuid: string | null;
  use_stop_division: '0' | '1';
  transaction_editable_flag: '0' | '1';
  self_checkout_available_flag: '0' | '1';
  smart_id_engine_available_flag: '0' | '1';
  credit_terminal_id: number | null;
  cash_drawer_id: number | null;
  parent_terminal_id: number | null;
  ins_at: number;
  upd_at: number;
}

/** A terminal's stored fields in API names, ids as numbers (what the rules check and SQL writes). */
export interface TerminalValues {
  storeId: number;
  terminalName: string;
  uuid: string | null;
  useStopDivision: '0' | '1';
  transactionEditableFlag: '0' | '1';
  selfCheckoutAvailableFlag: '0' | '1';
  smartIdEngineAvailableFlag: '0' | '1';
  creditTerminalId: number | null;
  cashDrawerId: number | null;
  parentTerminalId: number | null;
}

/** The seats of §8 a terminal may hold; each has its own cap in the contract settings. */
export type Seat = 'sales' | 'selfCheckout' | 'smartIdEngine';

export const COLUMNS: Record<keyof TerminalValues, string> = {
  storeId: 'store_id',
  terminalName: 'terminal_name',
  uuid: 'uuid',
  useStopDivision: 'use_stop_division',
  transactionEditableFlag: 'transaction_editable_flag',
  selfCheckoutAvailableFlag: 'self_checkout_available_flag',
  smartIdEngineAvailableFlag: 'smart_id_engine_available_flag',
  creditTerminalId: 'credit_terminal_id',
  cashDrawerId: 'cash_drawer_id',
  parentTerminalId: 'parent_terminal_id',
};
const SORT_COLUMNS = { terminalId: 'terminal_id', storeId: 'store_id', terminalName: 'terminal_name', updDateTime: 'upd_at' };

// Only terminals in use (useStopDivision 0) hold seats: stopping a register frees its seat.
const SEAT_FILTERS: Record<Seat, string> = {
  sales: '',
  selfCheckout: "AND self_checkout_available_flag = '1'",
  smartIdEngine: "AND smart_id_engine_available_flag = '1'",
};

export const valuesOf = (row: TerminalRow): TerminalValues => ({
  storeId: row.store_id,
  terminalName: row.terminal_name,
  uuid: row.uuid,
  useStopDivision: row.use_stop_division,
  transactionEditableFlag: row.transaction_editable_flag,
  selfCheckoutAvailableFlag: row.self_checkout_available_flag,
  smartIdEngineAvailableFlag: row.smart_id_engine_available_flag,
  creditTerminalId: row.credit_terminal_id,
  cashDrawerId: row.cash_drawer_id,
  parentTerminalId: row.parent_terminal_id,
});

/** SQL of register terminals; the rules of 4.16 live in TerminalRegistry. */
export class TerminalRepo extends MasterRepo<TerminalRow, keyof typeof SORT_COLUMNS> {
  private readonly byUuid;
  private readonly byCreditTerminal;
  private readonly childrenOf;
  private readonly seatCounts: Record<Seat, Statement>;

  constructor(db: Sqlite, writer: Writer, clock: Clock) {
    super(db, writer, clock, { entity: 'terminal', columns: COLUMNS, sort: SORT_COLUMNS });
    this.byUuid = db.prepare('SELECT * FROM terminals WHERE contract_id = ? AND uuid = ?');
    this.byCreditTerminal = db.prepare('SELECT * FROM terminals WHERE contract_id = ? AND credit_terminal_id = ?');
    this.childrenOf = db.prepare('SELECT terminal_id FROM terminals WHERE contract_id = ? AND parent_terminal_id = ? ORDER BY terminal_id');
    const count = (seat: Seat) =>
      db.prepare(
        `SELECT count(*) AS n FROM terminals
         WHERE contract_id = ? AND terminal_id <> ? AND use_stop_division = '0' ${SEAT_FILTERS[seat]}`,
      );
    this.seatCounts = { sales: count('sales'), selfCheckout: count('selfCheckout'), smartIdEngine: count('smartIdEngine') };
  }

  /** uuid compares without case (the column's collation). */
  findByUuid(contractId: string, uuid: string): TerminalRow | undefined {
    return this.byUuid.get(contractId, uuid) as TerminalRow | undefined;
  }

  findByCreditTerminal(contractId: string, paymentTerminalId: number): TerminalRow | undefined {
    return this.byCreditTerminal.get(contractId, paymentTerminalId) as TerminalRow | undefined;
  }

  children(contractId: string, terminalId: number): number[] {
    return (this.childrenOf.all(contractId, terminalId) as { terminal_id: number }[]).map((r) => r.terminal_id);
  }

  /** Seats held by the contract's terminals in use, not counting `exceptTerminalId`. */
  seatsHeld(contractId: string, seat: Seat, exceptTerminalId: number | null): number {
    return (this.seatCounts[seat].get(contractId, exceptTerminalId ?? -1) as { n: number }).n;
  }

  /** Inserts and reports the terminal (call inside `writer.write`); answers its id. */
  insert(contractId: string, terminalId: string, values: TerminalValues): string {
    const row: Record<string, unknown> = { terminal_id: terminalId };
    for (const [field, column] of Object.entries(COLUMNS)) row[column] = values[field as keyof TerminalValues];
    return this.insertRow(contractId, row);
  }

  /** Writes and reports the keys of `values` (call inside `writer.write`); false when none maps to a column. */
  update(contractId: string, current: TerminalRow, values: Partial<TerminalValues>): boolean {
    return this.updateFields(contractId, current, values);
  }

  list(contractId: string, query: ListTerminalsQuery, page: Page<keyof typeof SORT_COLUMNS>): TerminalRow[] {
    const filters = {
      store_id: query.store_id === undefined ? undefined : Number(query.store_id),
      uuid: query.uuid,
      use_stop_division: query.use_stop_division,
    };
    return this.select(contractId, filters, page);
  }
}
