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
    <div className="overflow-auto">
      <table className="striped master-table" aria-busy={rows === null} data-testid="master-table" data-loaded={props.loaded}>
        <thead>
          <tr>
            {spec.columns.map((c) => (
              <th
                key={c}
                scope="col"
                className={numeric(c) ? 'num' : undefined}
                aria-sort={sortedColumn === c ? (sortDir === 'desc' ? 'descending' : 'ascending') : undefined}
              >
                {prop(c).label[lang]}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{t('masters.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows?.length === 0 ? (
            <tr>
              <td colSpan={spec.columns.length + 1}>{t('masters.empty')}</td>
            </tr>
          ) : null}
          {(rows ?? []).map((row) => {
            const id = rowId(spec, row);
            const name = rowName(spec, row);
            return (
              <tr key={id} data-id={id}>
                {spec.columns.map((c) => (
                  <td key={c} className={numeric(c) ? 'num' : undefined}>
                    {cellText(prop(c), read(row, c), refs, lang, t)}
                  </td>
                ))}
                <td className="master-actions">
                  <Link to={props.editUrl(id)} aria-label={t(props.canUpdate ? 'masters.editRow' : 'masters.viewRow', { name })}>
                    {props.canUpdate ? t('common.edit') : t('masters.view')}
                  </Link>
                  {props.onDelete ? (
                    <button type="button" className="secondary outline" aria-label={t('masters.deleteRow', { name })} onClick={() => props.onDelete?.(row)}>
                      {t('common.delete')}
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
