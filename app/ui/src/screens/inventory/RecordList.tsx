import { DataTable, type Column } from '../../components/DataTable';
import { FilterBar, SelectFilter, type Choice } from '../../components/FilterBar';
import { LoadState } from '../../components/LoadState';
import { useT } from '../../i18n';
import { Link, navigate } from '../../router';
import { useFormat } from '../../shared/format';
import type { Loaded } from '../../shared/load';
import type { PageOf } from '../../shared/paging';
import { withQuery } from './data';
import { Paging } from './Frame';
import { messages } from './i18n';
import type { InventoryRecord } from './record';

/** A select filter kept in the list's URL query as `name`. */
export interface QueryFilter {
  name: string;
  label: string;
  /** The value in force (what the list asked the API for). */
  value: string;
  /** The empty choice: no filter. */
  any: string;
  options: readonly Choice[];
}

/** How a list names its records: the id, the link's name for screen readers and the status label. */
export interface RecordNames<Row> {
  id(row: Row): string;
  openLabel(row: Row): string;
  status(row: Row): string;
}

/** The columns every inventory record list has, placed by the list among its own. */
export type RecordColumns<Row> = Record<'id' | 'status' | 'identificationNo' | 'updated', Column<Row>>;

/**
 * An inventory record list (shippings, shipments, purchase orders) at `base`: its filters (in the
 * URL, applied on change) with the "new" button, the page the API answered (or "nothing to
 * show"), each record's id a link to it, and the paging.
 */
export function RecordList<Row extends InventoryRecord>({
  base,
  query,
  filters,
  newLabel,
  list,
  testId,
  rowAttribute,
  names,
  columns,
}: {
  base: string;
  query: URLSearchParams;
  filters: readonly QueryFilter[];
  newLabel: string;
  list: Loaded<PageOf<Row>>;
  testId: string;
  /** The row's attribute naming its record (`data-order`), for tests and styles. */
  rowAttribute: `data-${string}`;
  names: RecordNames<Row>;
  columns(common: RecordColumns<Row>): Column<Row>[];
}) {
  const t = useT(messages);
  const format = useFormat();
  const common: RecordColumns<Row> = {
    id: {
      key: 'id',
      header: t('inv.id'),
      cell: (row) => (
        <Link to={`${base}/${names.id(row)}`} aria-label={names.openLabel(row)}>
          {names.id(row)}
        </Link>
      ),
    },
    status: { key: 'status', header: t('inv.status'), cell: names.status, cellProps: () => ({ 'data-testid': 'status' }) },
    identificationNo: { key: 'identificationNo', header: t('inv.identificationNo'), cell: (row) => row.identificationNo ?? '' },
    updated: { key: 'updated', header: t('inv.updated'), cell: (row) => format.dateTime(row.updDateTime) },
  };
  return (
    <>
      <FilterBar
        label={t('inv.filter')}
        action={
          <Link to={`${base}/new`} role="button">
            {newLabel}
          </Link>
        }
      >
        {filters.map((f) => (
          <SelectFilter key={f.name} label={f.label} name={f.name} value={f.value} onChange={(v) => navigate(`${base}${withQuery(query, { [f.name]: v })}`)} any={f.any} options={f.options} />
        ))}
      </FilterBar>
      <LoadState value={list} empty={t('inv.none')} isEmpty={(page) => !page.rows.length}>
        {(page) => (
          <DataTable
            wrap="inv-table-wrap"
            className="inv-table"
            data-testid={testId}
            rows={page.rows}
            rowKey={names.id}
            rowProps={(row) => ({ [rowAttribute]: names.id(row) })}
            columns={columns(common)}
          />
        )}
      </LoadState>
      {list.state === 'done' ? <Paging base={base} query={query} hasPrev={list.data.hasPrev} hasNext={list.data.hasNext} /> : null}
    </>
  );
}
