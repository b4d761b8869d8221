import { DataTable } from '../../components/DataTable';
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
      <DataTable
        className="striped resv-list"
        rows={reservations}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-reservation': r.id })}
        columns={[
          {
            key: 'time',
            header: t('reservations.time'),
            cellClass: 'resv-time',
            cell: (r) => (
              <>
                {format.time(r.startAt)}–{format.time(r.endAt)}
              </>
            ),
          },
          {
            key: 'name',
            header: t('reservations.name'),
            cell: (r) => (
              <>
                <button type="button" className="resv-link-button" onClick={() => onOpen(r)}>
                  {r.reservationPersonName ?? t('reservations.nameless')}
                </button>
                {r.reservationPersonNameKana ? <small className="resv-muted"> {r.reservationPersonNameKana}</small> : null}
              </>
            ),
          },
          { key: 'party', header: t('reservations.party'), cell: (r) => t('reservations.partyShort', { count: partySize(r) }), cellProps: (r) => ({ title: t('reservations.partyValue', r.persons) }) },
          { key: 'tables', header: t('reservations.tables'), cell: (r) => r.tables.map((tb) => tb.name).join(', ') || '—' },
          { key: 'status', header: t('reservations.status'), cell: (r) => <span className={`resv-status resv-${r.status}`}>{t(`reservations.status.${r.status}`)}</span> },
          { key: 'phone', header: t('reservations.phone'), cell: (r) => r.phoneNumber ?? '' },
          { key: 'note', header: t('reservations.note'), cellClass: 'resv-note', cell: (r) => r.note ?? '' },
          { key: 'source', header: t('reservations.source'), cell: (r) => (r.reservationCode ? `${r.reservedFrom} (${r.reservationCode})` : r.reservedFrom) },
          {
            key: 'tableUse',
            header: t('reservations.tableUse'),
            cell: (r) => (r.tableUseId ? <Link to={`/reservations/table-uses/${encodeURIComponent(r.tableUseId)}`}>{t('reservations.tableUseLink', { id: r.tableUseId })}</Link> : ''),
          },
        ]}
      />
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
      <DataTable
        className="striped"
        data-testid="table-uses"
        rows={uses}
        rowKey={(u) => u.id}
        rowProps={(u) => ({ 'data-table-use': u.id })}
        columns={[
          { key: 'id', header: t('reservations.tableUse'), cell: (u) => u.id },
          { key: 'tables', header: t('reservations.tables'), cell: (u) => u.tables.map((tb) => tb.name).join(', ') },
          { key: 'status', header: t('reservations.status'), cell: (u) => t(`tableUse.status.${u.status}`) },
          { key: 'first', header: t('reservations.firstOrder'), cell: (u) => (u.firstOrdered ? format.time(u.firstOrdered) : '—') },
          { key: 'count', header: t('reservations.orderCount'), num: true, cell: (u) => u.orderCount },
          { key: 'guests', header: t('reservations.name'), cell: (u) => u.guests.join(', ') },
          {
            key: 'orders',
            header: <span className="visually-hidden">{t('reservations.showOrders')}</span>,
            cell: (u) => (
              <Link to={`/reservations/table-uses/${encodeURIComponent(u.id)}`} aria-label={`${t('reservations.showOrders')}: ${t('reservations.tableUseLink', { id: u.id })}`}>
                {t('reservations.showOrders')}
              </Link>
            ),
          },
        ]}
      />
    </div>
  );
}
