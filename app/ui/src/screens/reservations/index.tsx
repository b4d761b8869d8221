import { useState } from 'react';
import { SelectFilter } from '../../components/FilterBar';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { useT } from '../../i18n';
import { navigate, type ScreenProps } from '../../router';
import { useSession } from '../../session';
import { useFormat } from '../../shared/format';
import { useStores } from '../../shared/stores';
import { addDays, isIsoDate } from '../../shared/zoned';
import { DayGrid } from './DayGrid';
import { ReservationList, TableUseList } from './DayLists';
import { messages } from './i18n';
import { ReservationDialog, type DialogOutcome } from './ReservationDialog';
import { useDay, type Reservation } from './useDayData';
import './reservations.css';

export { TableUseOrdersScreen } from './TableUseOrders';

/** Reservations are a Food Business feature (server/http/plans.ts): every reservation route is 403 on other plans. */
export const RESERVATION_PLAN = 'food_business';

/**
 * Reservations of one day by table (`#/reservations?date=YYYY-MM-DD&store=<id>`): a day picker,
 * a time grid with the store's tables as rows, the same reservations as a list with every
 * detail, and the day's table uses with links to their orders. Days are the contract's.
 */
export function ReservationsScreen({ query }: ScreenProps) {
  const t = useT(messages);
  const format = useFormat();
  const session = useSession().session;
  const allowed = session?.plan === RESERVATION_PLAN;
  const date = isIsoDate(query.get('date')) ? query.get('date')! : format.today();
  const stores = useStores(allowed);
  const storeList = stores.state === 'done' ? stores.data.filter((s) => s.division === '1') : [];
  const wanted = query.get('store');
  const storeId = storeList.find((s) => s.storeId === wanted)?.storeId ?? storeList[0]?.storeId ?? null;
  const [reload, setReload] = useState(0);
  const day = useDay(allowed ? storeId : null, date, format.timeZone, reload);
  const [editing, setEditing] = useState<Reservation | 'new' | null>(null);
  const [notice, setNotice] = useState('');

  const go = (next: { date?: string; store?: string | null }) => {
    const q = new URLSearchParams({ date: next.date ?? date });
    const store = next.store === undefined ? storeId : next.store;
    if (store) q.set('store', store);
    setNotice('');
    navigate(`/reservations?${q.toString()}`);
  };

  const closeDialog = (outcome?: DialogOutcome) => {
    setEditing(null);
    if (!outcome) return;
    setNotice(t(`reservations.${outcome}`));
    setReload((n) => n + 1);
  };

  if (!allowed) {
    return (
      <section>
        <h1>{t('reservations.title')}</h1>
        <p className="notice" role="note" data-testid="plan-notice">
          {t('reservations.planOnly', { plan: session?.plan ?? '' })}
        </p>
      </section>
    );
  }

  return (
    <section className="reservations">
      <h1>{t('reservations.title')}</h1>
      <form className="resv-toolbar" onSubmit={(e) => e.preventDefault()}>
        <button type="button" className="secondary outline" onClick={() => go({ date: addDays(date, -1) })}>
          ← {t('reservations.prevDay')}
        </button>
        <label>
          <span>{t('reservations.day')}</span>
          <input type="date" name="date" value={date} required onChange={(e) => isIsoDate(e.target.value) && go({ date: e.target.value })} />
        </label>
        <button type="button" className="secondary outline" onClick={() => go({ date: addDays(date, 1) })}>
          {t('reservations.nextDay')} →
        </button>
        <button type="button" className="secondary outline" onClick={() => go({ date: format.today() })} disabled={date === format.today()}>
          {t('reservations.today')}
        </button>
        <SelectFilter
          label={<span>{t('reservations.store')}</span>}
          name="store"
          value={storeId ?? ''}
          onChange={(store) => go({ store })}
          options={storeList.map((s) => ({ value: s.storeId, label: s.storeName }))}
          disabled={!storeList.length}
        />
        <span className="resv-spacer" />
        <button type="button" onClick={() => setEditing('new')} disabled={!storeId || day.state !== 'done'}>
          {t('reservations.new')}
        </button>
      </form>
      <p role="status" className="resv-notice">
        {notice}
      </p>
      {stores.state === 'error' ? <FormProblem problem={stores.problem} /> : null}
      {stores.state === 'done' && !storeList.length ? <p>{t('reservations.noStores')}</p> : null}
      {day.state === 'error' ? <FormProblem problem={day.problem} /> : null}
      {storeId && day.state === 'loading' ? <Loading /> : null}
      {day.state === 'done' ? (
        <>
          {day.data.truncated ? <p className="notice">{t('reservations.truncated')}</p> : null}
          <h2 className="resv-heading">{t('reservations.grid', { date: format.date(date) })}</h2>
          {day.data.tables.length ? null : <p>{t('reservations.noTables')}</p>}
          <DayGrid date={date} tables={day.data.tables} reservations={day.data.reservations} onOpen={setEditing} />
          <small className="resv-muted">{t('reservations.gridHint')}</small>
          <h2 className="resv-heading">{t('reservations.list')}</h2>
          <ReservationList reservations={day.data.reservations} onOpen={setEditing} />
          <h2 className="resv-heading">{t('reservations.tableUses')}</h2>
          <p className="resv-muted">{t('reservations.tableUsesHint')}</p>
          <TableUseList uses={day.data.tableUses} />
        </>
      ) : null}
      {editing && storeId && day.state === 'done' ? (
        <ReservationDialog storeId={storeId} date={date} tables={day.data.tables} reservation={editing === 'new' ? null : editing} onClose={closeDialog} />
      ) : null}
    </section>
  );
}
