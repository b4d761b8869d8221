import { useEffect, useState, type FormEvent } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { useLang, useT } from '../../i18n';
import { messages } from './i18n';
import type { RefOptions } from './refs';
import type { MasterSpec, Prop } from './spec';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * The search form above a list: the API's filters of the kind (applied with the button, so a
 * keyboard user types them all first), the sort and the page size (applied on change).
 * Everything lives in the URL query, so a filtered page can be reloaded and bookmarked.
 */
export function ListFilters(props: {
  spec: MasterSpec;
  query: URLSearchParams;
  refs: RefOptions;
  problem: ProblemView | null;
  prop(name: string): Prop;
  apply(changes: Record<string, string>): void;
}) {
  const { spec, query, refs, problem, prop, apply } = props;
  const t = useT(messages);
  const { lang } = useLang();
  const filters = Object.entries(spec.filters ?? {}).filter((e): e is [string, Prop] => !!e[1]);
  const fromQuery = () => Object.fromEntries(filters.map(([name]) => [name, query.get(name) ?? '']));
  const [draft, setDraft] = useState<Record<string, string>>(fromQuery);
  const queryText = query.toString();
  // Back/forward or a link changes the query: the inputs follow it.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setDraft(fromQuery()), [queryText, spec.kind]);

  if (!filters.length && !spec.sort?.length && !spec.paging) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({ ...draft, page: '' });
  };
  const clear = () => apply({ ...Object.fromEntries(filters.map(([name]) => [name, ''])), page: '' });

  const limit = query.get('limit') ?? String(DEFAULT_PAGE_SIZE);
  const sizes = PAGE_SIZES.map(String).includes(limit) ? PAGE_SIZES.map(String) : [...PAGE_SIZES.map(String), limit];
  const sortLabel = (key: string) => prop(spec.sortColumns?.[key] ?? key).label[lang];

  return (
    // A named form (a landmark), not role="search": Pico draws role="search" as one joined input group.
    <form aria-label={t('masters.search')} onSubmit={submit} noValidate className="master-filters">
      {filters.map(([name, filter]) => (
        <Field key={name} label={filter.label[lang]} name={name} error={fieldError(problem, name)}>
          {filter.options || filter.ref ? (
            <select value={draft[name] ?? ''} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}>
              <option value="">{t('masters.any')}</option>
              {filter.options
                ? Object.entries(filter.options).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label[lang]}
                    </option>
                  ))
                : (refs[filter.ref!] ?? []).map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
            </select>
          ) : (
            <input type="text" value={draft[name] ?? ''} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />
          )}
        </Field>
      ))}
      {filters.length ? (
        <div className="master-filter-buttons">
          <button type="submit">{t('common.search')}</button>
          <button type="button" className="secondary outline" onClick={clear}>
            {t('masters.clear')}
          </button>
        </div>
      ) : null}
      {spec.sort?.length ? (
        <Field label={t('masters.sort')} name="sort" error={fieldError(problem, 'sort')}>
          <select value={query.get('sort') ?? ''} onChange={(e) => apply({ sort: e.target.value, page: '' })}>
            <option value="">{t('masters.sortDefault')}</option>
            {spec.sort.flatMap((key) => [
              <option key={key} value={key}>
                {t('masters.asc', { field: sortLabel(key) })}
              </option>,
              <option key={`${key}:desc`} value={`${key}:desc`}>
                {t('masters.desc', { field: sortLabel(key) })}
              </option>,
            ])}
          </select>
        </Field>
      ) : null}
      {spec.paging ? (
        <Field label={t('masters.pageSize')} name="limit" error={fieldError(problem, 'limit')}>
          <select value={limit} onChange={(e) => apply({ limit: e.target.value, page: '' })}>
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
    </form>
  );
}
