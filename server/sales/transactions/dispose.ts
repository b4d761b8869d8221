import { formatDecimal } from '../../domain/money.js';
import { exact } from '../../domain/rounding.js';
import { formatDate, parseDateTime } from '../../domain/time.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { COUPON_FIELDS, DETAIL_FIELDS, HEADER_FIELDS, OTHER_FIELDS, type Field, type Rec } from './catalog.js';
import type { TransactionRegistry } from './register.js';
import type { TransactionRecord } from './repo.js';
import type { DisposeTransaction } from './schema.js';
import { assertDayOpen, releaseFirstAt } from '../closing/open-day.js';

/** Default transactionUuid: the last 9 digits of the epoch seconds, then the terminal id in 4 digits. */
export function defaultUuid(now: number, terminalId: string | number | null): string {
  const seconds = String(Math.floor(now / 1000)).slice(-9).padStart(9, '0');
  const terminal = terminalId === null ? '0000' : String(terminalId).slice(-4).padStart(4, '0');
  return seconds + terminal;
}

/**
 * The source of a return-cancel (4.7, or POST /transactions with disposeDivision 2): not already
 * return-cancelled (1), not itself a return-cancel (2), not cancelled (it moved no cash or points).
 * A refusal is a 400 naming `field`.
 */
export function assertDisposable(s: Rec, field: string): void {
  const id = s.transactionHeadId;
  if (s.disposeDivision === '1') throw InvalidInput.field(field, `transaction ${id} has already been return-cancelled`);
  if (s.disposeDivision === '2') {
    throw InvalidInput.field(field, `transaction ${id} is itself a return-cancel (of transaction ${s.disposeServerTransactionHeadId}) and cannot be return-cancelled`);
  }
  if (s.cancelDivision === '1') throw InvalidInput.field(field, `transaction ${id} is cancelled (cancelDivision 1): it moved no cash or points and cannot be return-cancelled`);
}

/** Every amount, quantity, point and mile of a record negated (unit prices and rates kept). */
function negated(list: readonly Field[], rec: Rec): Rec {
  const out = { ...rec };
  for (const f of list) {
    const v = out[f.name];
    if (v === null || v === undefined) continue;
    if (f.kind === 'units') out[f.name] = v === 0 ? 0 : -(v as number);
    else if (f.kind === 'amt') out[f.name] = formatDecimal(exact(v).neg());
  }
  return out;
}

/**
 * POST /transactions/{id}/dispose (spec 4.7): a return-cancel transaction — the source with
 * every amount negated, disposeDivision 2 — is registered; the source becomes disposeDivision
 * 1 with cancelDateTime now; the member gets back the points the source gave and spent.
 */
export function disposeTransaction(reg: TransactionRegistry, contract: Contract, transactionId: string, body: DisposeTransaction): TransactionRecord {
  const cid = contract.contractId;
  return reg.writer.write(() => {
    const source = reg.repo.find(cid, transactionId);
    if (!source) throw NotFoundError.field('transaction_id', `transaction ${transactionId} does not exist`);
    const s = source.header;
    assertDisposable(s, 'transaction_id');
    reg.stores.referenced(cid, String(s.storeId), { open: true });
    const now = reg.clock.now().getTime();
    const terminalTranAt = body?.terminalTranDateTime === undefined ? now : parseDateTime(body.terminalTranDateTime)!;
    // Only the cancelSlipNumber sent with the return-cancel is recorded, never the source's.
    const depositOthers = source.depositOthers.map((r): Rec => ({ ...negated(OTHER_FIELDS, r), cancelSlipNumber: null }));
    for (const [i, entry] of (body?.depositOthers ?? []).entries()) {
      const line = depositOthers.find((o) => String(o.no) === entry.no);
      const field = `depositOthers[${i}].no`;
      if (!line) throw InvalidInput.field(field, `transaction ${transactionId} has no other-payment line ${entry.no}`);
      if (reg.methods.find(cid, line.paymentMethodId as number)?.individual_application !== '1') {
        throw InvalidInput.field(field, `other-payment line ${entry.no} is not paid with a payment method registered by the individual-application registration operation`);
      }
      if (entry.cancelSlipNumber !== undefined) line.cancelSlipNumber = entry.cancelSlipNumber;
    }

    const header = negated(HEADER_FIELDS, s);
    if (s.adjustmentMileDivision === '2' || s.adjustmentMileDivision === '3') header.adjustmentMileValue = formatDecimal(exact(s.adjustmentMileValue ?? 0).neg());
    const customer = s.customerId === null ? undefined : reg.customers.find(cid, s.customerId as number);
    const point = exact(customer?.point ?? 0);
    const d = (name: string) => exact(header[name] ?? 0);
    header.point = formatDecimal(point);
    header.totalPoint = formatDecimal(point.plus(d('newPoint')).minus(d('spendPoint')));
    if (s.currentMile !== null) {
      const mile = exact(customer?.mile ?? 0);
      header.currentMile = formatDecimal(mile);
      header.totalMile = formatDecimal(mile.plus(d('earnMile')).plus(d('adjustmentMile')));
    }
    // A source of an unknown terminal was registered closed; so is its return-cancel (it can never be settled).
    const closed = s.terminalId === null || !reg.terminals.find(cid, s.terminalId as number);
    // The return-cancel is a new record dated on its terminal time: a closed day takes none.
    if (!closed) {
      const day = { contractId: cid, storeId: s.storeId as number, date: formatDate(terminalTranAt, contract.timeZone) };
      assertDayOpen(reg.closings, day, { field: 'terminalTranDateTime', message: releaseFirstAt });
    }
    Object.assign(header, {
      transactionHeadId: Number(reg.ids.next('transactions')),
      transactionDateTime: now,
      terminalTranDateTime: terminalTranAt,
      cancelDivision: '0',
      cancelDateTime: null,
      sumDivision: closed ? '2' : '0',
      adjustmentDateTime: null,
      sumDate: closed ? formatDate(terminalTranAt, contract.timeZone) : null,
      disposeDivision: '2',
      disposeServerTransactionHeadId: s.transactionHeadId,
      transactionUuid: defaultUuid(now, s.terminalId ?? null),
      updDateTime: now,
    });
    const record: TransactionRecord = {
      header,
      details: source.details.map((r) => negated(DETAIL_FIELDS, r)),
      depositOthers,
      coupons: source.coupons.map((r) => negated(COUPON_FIELDS, r)),
      // The member gets back what the source gave and spent only if the source applied it.
      pointsApplied: !!customer && !!source.pointsApplied,
    };
    reg.repo.insert(cid, record, now);
    reg.repo.markDisposed(cid, s.transactionHeadId as number, now);
    reg.writer.changed({ contractId: cid, entity: 'transaction', id: String(header.transactionHeadId), op: 'insert' });
    reg.writer.changed({ contractId: cid, entity: 'transaction', id: String(s.transactionHeadId), op: 'update' });
    if (record.pointsApplied) reg.addMemberPoints(cid, customer!, s, -1, header.transactionHeadId as number);
    reg.stock.moveTransaction(cid, record); // the goods the source took come back
    return record;
  });
}
