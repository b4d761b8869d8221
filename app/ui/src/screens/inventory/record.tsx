import type { Fact } from '../../components/Facts';
import type { Translate } from '../../i18n';
import { Link } from '../../router';
import type { useFormat } from '../../shared/format';
import type { messages } from './i18n';

type Format = ReturnType<typeof useFormat>;

type T = Translate<keyof (typeof messages)['ja']>;

/** What every inventory record (a shipping, a shipment, a purchase order) has. */
export interface InventoryRecord {
  identificationNo?: string | null;
  memo?: string | null;
  updDateTime: string;
}

/** The facts every inventory record's summary ends with: its reference number and its memo (the whole row). */
export function recordFacts(t: T, record: InventoryRecord, memoTestId?: string): Fact[] {
  return [
    { label: t('inv.identificationNo'), value: record.identificationNo ?? '' },
    { label: t('inv.memo'), value: record.memo ?? '', className: 'inv-wide', valueProps: memoTestId ? { 'data-testid': memoTestId } : {} },
  ];
}

/** Approved or not, and when (a shipping's or a shipment's approval). */
export function approvalFact(t: T, format: Format, record: { approvalStatus: '0' | '1' | '2' | '3'; approvalDateTime?: string | null }): Fact {
  const value = (
    <>
      {t(`inv.approval.${record.approvalStatus}`)}
      {record.approvalDateTime ? ` (${format.dateTime(record.approvalDateTime)})` : ''}
    </>
  );
  return { label: t('inv.approval'), value, valueProps: { 'data-testid': 'approval' } };
}

/** Approve and reject, for a record awaiting approval. */
export function ApprovalButtons({ t, busy, approve, reject }: { t: T; busy: boolean; approve(): void; reject(): void }) {
  return (
    <>
      <button type="button" disabled={busy} onClick={approve}>
        {t('inv.approve')}
      </button>
      <button type="button" className="secondary" disabled={busy} onClick={reject}>
        {t('inv.reject')}
      </button>
    </>
  );
}

/**
 * The top of an inventory record's page: the way back to its list (`back`), its heading, and the
 * live notice of what was just done to it (created, saved, completed…).
 */
export function RecordHeading({ t, back, heading, notice, noticeTestId = 'notice' }: { t: T; back: string; heading: string; notice: string; noticeTestId?: string | null }) {
  return (
    <>
      <p>
        <Link to={back}>← {t('inv.back')}</Link>
      </p>
      <h2>{heading}</h2>
      <p role="status" className="inv-notice" {...(noticeTestId ? { 'data-testid': noticeTestId } : {})}>
        {notice}
      </p>
    </>
  );
}
