import { useT } from '../../i18n';
import { Link } from '../../router';
import { useFormat } from '../../shared/format';
import { partySize } from './DayGrid';
import { messages } from './i18n';
import type { DayTableUse, Reservation } from './useDayData';

/** The day's reservations as a list in start order: every detail, one button per reservation to open it. */
export function ReservationList({ reservations, onOpen }: { reservations: Reservation[]; onOpen(r: Reservation): void }) {
  const t = useT(messages);
  const format = useFormat();
  if (!reservations.length) return <p data-testid="no-reservations">{t('reservations.none')}</p>;
  return (
    <div className="overflow-auto">
      <table className="striped resv-list">
        <thead>
          <tr>
            <th scope="col">{t('reservations.time')}</th>
            <th scope="col">{t('reservations.name')}</th>
            <th scope="col">{t('reservations.party')}</th>
            <th scope="col">{t('reservations.tables')}</th>
            <th scope="col">{t('reservations.status')}</th>
            <th scope="col">{t('reservations.phone')}</th>
            <th scope="col">{t('reservations.note')}</th>
            <th scope="col">{t('reservations.source')}</th>
            <th scope="col">{t('reservations.tableUse')}</th>
          </tr>
        </thead>
        <tbody>
          {reservations.map((r) => (
            <tr key={r.id} data-reservation={r.id}>
              <td className="resv-time">
                {format.time(r.startAt)}–{format.time(r.endAt)}
              </td>
              <td>
                <button type="button" className="resv-link-button" onClick={() => onOpen(r)}>
                  {r.reservationPersonName ?? t('reservations.nameless')}
                </button>
                {r.reservationPersonNameKana ? <small className="resv-muted"> {r.reservationPersonNameKana}</small> : null}
              </td>
              <td title={t('reservations.partyValue', r.persons)}>{t('reservations.partyShort', { count: partySize(r) })}</td>
              <td>{r.tables.map((tb) => tb.name).join(', ') || '—'}</td>
              <td>
                <span className={`resv-status resv-${r.status}`}>{t(`reservations.status.${r.status}`)}</span>
              </td>
              <td>{r.phoneNumber ?? ''}</td>
              <td className="resv-note">{r.note ?? ''}</td>
              <td>{r.reservationCode ? `${r.reservedFrom} (${r.reservationCode})` : r.reservedFrom}</td>
              <td>{r.tableUseId ? <Link to={`/reservations/table-uses/${encodeURIComponent(r.tableUseId)}`}>{t('reservations.tableUseLink', { id: r.tableUseId })}</Link> : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The day's table uses, each with a link to its orders. */
export function TableUseList({ uses }: { uses: DayTableUse[] }) {
  const t = useT(messages);
  const format = useFormat();
  if (!uses.length) return <p>{t('reservations.noTableUses')}</p>;
  return (
    <div className="overflow-auto">
      <table className="striped" data-testid="table-uses">
        <thead>
          <tr>
            <th scope="col">{t('reservations.tableUse')}</th>
            <th scope="col">{t('reservations.tables')}</th>
            <th scope="col">{t('reservations.status')}</th>
            <th scope="col">{t('reservations.firstOrder')}</th>
            <th scope="col" className="num">
              {t('reservations.orderCount')}
            </th>
            <th scope="col">{t('reservations.name')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('reservations.showOrders')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {uses.map((u) => (
            <tr key={u.id} data-table-use={u.id}>
              <td>{u.id}</td>
              <td>{u.tables.map((tb) => tb.name).join(', ')}</td>
              <td>{t(`tableUse.status.${u.status}`)}</td>
              <td>{u.firstOrdered ? format.time(u.firstOrdered) : '—'}</td>
              <td className="num">{u.orderCount}</td>
              <td>{u.guests.join(', ')}</td>
              <td>
                <Link to={`/reservations/table-uses/${encodeURIComponent(u.id)}`} aria-label={`${t('reservations.showOrders')}: ${t('reservations.tableUseLink', { id: u.id })}`}>
                  {t('reservations.showOrders')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
