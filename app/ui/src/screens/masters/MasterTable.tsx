import { DataTable, type Column } from '../../components/DataTable';
import { useLang, useT } from '../../i18n';
import { Link } from '../../router';
import { messages } from './i18n';
import type { RefOptions } from './refs';
import type { MasterSpec, Prop } from './spec';
import { read } from './values';
import { cellText, rowId, rowName } from './view';

type Row = Record<string, unknown>;

/** The rows of a list: the kind's columns, then edit (or view) and delete per row. */
export function MasterTable(props: {
  spec: MasterSpec;
  rows: Row[] | null;
  /** `kind?query` of the rows shown (data-loaded). */
  loaded: string;
  refs: RefOptions;
  prop(name: string): Prop;
  /** The current `sort` (`field` or `field:desc`), for aria-sort on its column. */
  sort: string;
  editUrl(id: string): string;
  canUpdate: boolean;
  onDelete?: ((row: Row) => void) | undefined;
}) {
  const { spec, rows, refs, prop, sort } = props;
  const t = useT(messages);
  const { lang } = useLang();
  const [sortKey, sortDir] = sort.split(':') as [string, string?];
  const sortedColumn = sortKey ? (spec.sortColumns?.[sortKey] ?? sortKey) : '';
  // Amounts, ids, sequences and counts line up on the right; a ref shows a name, so it does not.
  const numeric = (name: string) => {
    const p = prop(name);
    return !!p.yen || (!p.ref && !p.options && /Id$|^id$|^no$|Sequence$|Rate$|quantity/.test(name));
  };

  return (
    <DataTable
      wrap="overflow-auto"
      className="striped master-table"
      aria-busy={rows === null}
      data-testid="master-table"
      data-loaded={props.loaded}
      rows={rows ?? []}
      rowKey={(row) => rowId(spec, row)}
      rowProps={(row) => ({ 'data-id': rowId(spec, row) })}
      emptyRow={rows === null ? undefined : t('masters.empty')}
      columns={[
        ...spec.columns.map(
          (c): Column<Row> => ({
            key: c,
            header: prop(c).label[lang],
            num: numeric(c),
            headerProps: { 'aria-sort': sortedColumn === c ? (sortDir === 'desc' ? 'descending' : 'ascending') : undefined },
            cell: (row) => cellText(prop(c), read(row, c), refs, lang, t),
          }),
        ),
        {
          key: 'actions',
          header: <span className="visually-hidden">{t('masters.actions')}</span>,
          cellClass: 'master-actions',
          cell: (row) => {
            const id = rowId(spec, row);
            const name = rowName(spec, row);
            return (
              <>
                <Link to={props.editUrl(id)} aria-label={t(props.canUpdate ? 'masters.editRow' : 'masters.viewRow', { name })}>
                  {props.canUpdate ? t('common.edit') : t('masters.view')}
                </Link>
                {props.onDelete ? (
                  <button type="button" className="secondary outline" aria-label={t('masters.deleteRow', { name })} onClick={() => props.onDelete?.(row)}>
                    {t('common.delete')}
                  </button>
                ) : null}
              </>
            );
          },
        },
      ]}
    />
  );
}
