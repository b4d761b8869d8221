import type { CSSProperties } from 'react';
import { useT } from '../../i18n';
import { useFormat } from '../../shared/format';
import { minutesIntoDay } from '../../shared/zoned';
import { messages } from './i18n';
import type { Reservation, Table } from './useDayData';

/** Opening hours most restaurants keep; the grid widens when a reservation lies outside them. */
const DEFAULT_FIRST_HOUR = 10;
const DEFAULT_LAST_HOUR = 24;
const LANE_REM = 2.6;

interface Placed {
  reservation: Reservation;
  start: number;
  end: number;
  lane: number;
}

/** Puts each reservation of a row on the first lane where it overlaps nothing (overlaps are allowed, 4.13). */
function placeInLanes(items: { reservation: Reservation; start: number; end: number }[]): { placed: Placed[]; lanes: number } {
  const laneEnds: number[] = [];
  const placed = [...items]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map((item) => {
      let lane = laneEnds.findIndex((end) => end <= item.start);
      if (lane < 0) lane = laneEnds.push(item.end) - 1;
      else laneEnds[lane] = item.end;
      return { ...item, lane };
    });
  return { placed, lanes: Math.max(1, laneEnds.length) };
}

export const partySize = (r: Reservation) => r.persons.adults + r.persons.children;

/**
 * The day as a time grid: one row per table (plus one for reservations without a table), hours
 * across, each reservation a button placed by its start and end in the contract's zone. A
 * reservation on two tables shows on both rows. Rows are a real table (row headers = table names).
 */
export function DayGrid({ date, tables, reservations, onOpen }: { date: string; tables: Table[]; reservations: Reservation[]; onOpen(r: Reservation): void }) {
  const t = useT(messages);
  const format = useFormat();
  const spans = reservations.map((reservation) => ({
    reservation,
    start: minutesIntoDay(Date.parse(reservation.startAt), date, format.timeZone),
    end: minutesIntoDay(Date.parse(reservation.endAt), date, format.timeZone),
  }));
  const firstHour = Math.max(0, Math.min(DEFAULT_FIRST_HOUR, ...spans.map((s) => Math.floor(s.start / 60))));
  const lastHour = Math.min(24, Math.max(DEFAULT_LAST_HOUR, ...spans.map((s) => Math.ceil(s.end / 60))));
  const hours = Array.from({ length: lastHour - firstHour }, (_, i) => firstHour + i);
  const span = (lastHour - firstHour) * 60;
  const percent = (minutes: number) => `${(Math.min(Math.max(minutes - firstHour * 60, 0), span) / span) * 100}%`;

  const tableIds = new Set(tables.map((tb) => tb.tableId));
  const rows = tables.map((table) => ({
    key: table.tableId,
    name: table.name,
    seats: table.seats,
    items: spans.filter((s) => s.reservation.tables.some((rt) => rt.id === table.tableId)),
  }));
  // Reservations without a table of this store's list (none given, or imported without one).
  const loose = spans.filter((s) => !s.reservation.tables.some((rt) => tableIds.has(rt.id)));
  if (loose.length) rows.push({ key: 'none', name: t('reservations.noTable'), seats: null, items: loose });

  const label = (r: Reservation) =>
    [
      `${format.time(r.startAt)}–${format.time(r.endAt)}`,
      r.reservationPersonName ?? t('reservations.nameless'),
      t('reservations.partyShort', { count: partySize(r) }),
      t(`reservations.status.${r.status}`),
    ].join(' ');

  return (
    <div className="resv-grid-wrap" role="region" aria-label={t('reservations.grid', { date: format.date(date) })} tabIndex={0}>
      <table className="resv-grid" style={{ '--hours': hours.length } as CSSProperties}>
        <thead>
          <tr>
            <th scope="col" className="resv-grid-name">
              {t('reservations.table')}
            </th>
            <th scope="col" className="resv-grid-hours" aria-label={t('reservations.time')}>
              {hours.map((h) => (
                <span key={h} style={{ left: percent(h * 60) }}>
                  {h}:00
                </span>
              ))}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const { placed, lanes } = placeInLanes(row.items);
            return (
              <tr key={row.key} data-table={row.name}>
                <th scope="row" className="resv-grid-name">
                  {row.name}
                  {row.seats ? <small> {t('reservations.seats', { seats: row.seats })}</small> : null}
                </th>
                <td className="resv-grid-cell">
                  <div className="resv-track" style={{ height: `${lanes * LANE_REM}rem` }}>
                    {placed.map(({ reservation: r, start, end, lane }) => (
                      <button
                        key={r.id}
                        type="button"
                        className={`resv-block resv-${r.status}`}
                        data-reservation={r.id}
                        style={{ left: percent(start), width: `calc(${percent(end)} - ${percent(start)})`, top: `${lane * LANE_REM}rem` }}
                        title={label(r)}
                        aria-label={label(r)}
                        onClick={() => onOpen(r)}
                      >
                        <span className="resv-block-time">{format.time(r.startAt)}</span> {r.reservationPersonName ?? t('reservations.nameless')}{' '}
                        <span className="resv-block-party">{t('reservations.partyShort', { count: partySize(r) })}</span>
                      </button>
                    ))}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
