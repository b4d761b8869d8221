import { useEffect, useState, type FormEvent } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { SelectField } from '../../components/SelectField';
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
      {filters.map(([name, filter]) =>
        filter.options || filter.ref ? (
          <SelectField
            key={name}
            label={filter.label[lang]}
            name={name}
            value={draft[name] ?? ''}
            onChange={(value) => setDraft({ ...draft, [name]: value })}
            any={t('masters.any')}
            options={filter.options ? Object.entries(filter.options).map(([value, label]) => ({ value, label: label[lang] })) : (refs[filter.ref!] ?? [])}
            error={fieldError(problem, name)}
          />
        ) : (
          <Field key={name} label={filter.label[lang]} name={name} error={fieldError(problem, name)}>
            <input type="text" value={draft[name] ?? ''} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />
          </Field>
        ),
      )}
      {filters.length ? (
        <div className="master-filter-buttons">
          <button type="submit">{t('common.search')}</button>
          <button type="button" className="secondary outline" onClick={clear}>
            {t('masters.clear')}
          </button>
        </div>
      ) : null}
      {spec.sort?.length ? (
        <SelectField
          label={t('masters.sort')}
          name="sort"
          value={query.get('sort') ?? ''}
          onChange={(sort) => apply({ sort, page: '' })}
          any={t('masters.sortDefault')}
          options={spec.sort.flatMap((key) => [
            { value: key, label: t('masters.asc', { field: sortLabel(key) }) },
            { value: `${key}:desc`, label: t('masters.desc', { field: sortLabel(key) }) },
          ])}
          error={fieldError(problem, 'sort')}
        />
      ) : null}
      {spec.paging ? (
        <SelectField label={t('masters.pageSize')} name="limit" value={limit} onChange={(limit) => apply({ limit, page: '' })} options={sizes.map((size) => ({ value: size, label: size }))} error={fieldError(problem, 'limit')} />
      ) : null}
    </form>
  );
}
