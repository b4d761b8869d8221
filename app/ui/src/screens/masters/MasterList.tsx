import { useCallback, useEffect, useMemo, useState } from 'react';
import { useApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { FormProblem } from '../../components/FormProblem';
import { Pager } from '../../components/Pager';
import { useLang, useT } from '../../i18n';
import { Link, navigate } from '../../router';
import { useSession } from '../../session';
import { deleteRow, listRows, type ListPage } from './api';
import { ConfirmDialog } from './ConfirmDialog';
import { messages } from './i18n';
import { DEFAULT_PAGE_SIZE, ListFilters } from './ListFilters';
import { MasterTable } from './MasterTable';
import { useRefs } from './refs';
import { planAllows, type MasterSpec } from './spec';
import { explain, listParams, propFor, refsOf, rowName, screenUrl, takeFlash } from './view';

type Row = Record<string, unknown>;

/**
 * The list of one master kind: the API's filters, sort and paging (limit/page, prev/next from
 * the Link header), a table, and per row edit (or view) and delete (asked first).
 */
export function MasterList({ spec, query }: { spec: MasterSpec; query: URLSearchParams }) {
  const t = useT(messages);
  const { lang } = useLang();
  const { api, contract } = useApi();
  const plan = useSession().session?.plan ?? '';
  const prop = useMemo(() => propFor(spec), [spec]);
  const [page, setPage] = useState<(ListPage & { loaded: string }) | null>(null);
  const [rawProblem, setProblem] = useState<ProblemView | null>(null);
  const problem = useMemo(() => rawProblem && explain(rawProblem, t), [rawProblem, t]);
  const [status, setStatus] = useState<string | null>(takeFlash);
  const [reload, setReload] = useState(0);
  const [pending, setPending] = useState<Row | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [rawDeleteProblem, setDeleteProblem] = useState<ProblemView | null>(null);
  const deleteProblem = useMemo(() => rawDeleteProblem && explain(rawDeleteProblem, t), [rawDeleteProblem, t]);
  const [showAnyway, setShowAnyway] = useState(false);

  const gated = !!spec.restaurant && plan !== '' && plan !== 'food_business' && !showAnyway;
  const scopeValue = spec.scope ? (query.get(spec.scope.param) ?? '') : '';
  const scopeParams = useMemo(() => (spec.scope && scopeValue ? { [spec.scope.param]: scopeValue } : {}), [spec.scope, scopeValue]);
  const refs = useRefs(gated ? [] : refsOf(spec, spec.columns, prop, true), scopeParams);
  const queryText = query.toString();

  const apply = useCallback(
    (changes: Record<string, string>) => {
      const next = listParams(new URLSearchParams(queryText));
      for (const [k, v] of Object.entries(changes)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      navigate(screenUrl(spec.kind, next));
    },
    [queryText, spec.kind],
  );

  // A list under a store (menu conditions): the first store until one is chosen.
  const firstScope = spec.scope ? refs[spec.scope.ref]?.[0]?.value : undefined;
  useEffect(() => {
    if (spec.scope && !scopeValue && firstScope) {
      const next = listParams(new URLSearchParams(queryText));
      next.set(spec.scope.param, firstScope);
      navigate(screenUrl(spec.kind, next), { replace: true });
    }
  }, [spec, scopeValue, firstScope, queryText]);

  useEffect(() => {
    if (gated || (spec.scope && !scopeValue)) return;
    let live = true;
    const q = new URLSearchParams(queryText);
    const apiQuery: Record<string, string> = {};
    for (const name of Object.keys(spec.filters ?? {})) if (q.get(name)) apiQuery[name] = q.get(name)!;
    if (spec.sort && q.get('sort')) apiQuery.sort = q.get('sort')!;
    if (spec.paging) {
      apiQuery.limit = q.get('limit') ?? String(DEFAULT_PAGE_SIZE);
      apiQuery.page = q.get('page') ?? '1';
    }
    setPage(null);
    void listRows(api, spec, { ...contract, ...scopeParams }, apiQuery).then((r) => {
      if (!live) return;
      setProblem(r.ok ? null : r.problem);
      // `loaded` names what the rows are of, so a test (or a person) can tell a stale table from a fresh one.
      setPage({ ...(r.ok ? r.data : { rows: [], hasPrev: false, hasNext: false }), loaded: `${spec.kind}?${queryText}` });
    });
    return () => {
      live = false;
    };
  }, [api, contract, spec, queryText, scopeParams, scopeValue, gated, reload]);

  const confirmDelete = async () => {
    if (!pending) return;
    setDeleting(true);
    const r = await deleteRow(api, spec, { ...contract, ...scopeParams }, String(pending[spec.key]));
    setDeleting(false);
    if (!r.ok) {
      setDeleteProblem(r.problem);
      return;
    }
    setStatus(t('masters.deleted', { name: rowName(spec, pending) }));
    setPending(null);
    setReload((n) => n + 1);
  };

  const canCreate = !!spec.create && planAllows(spec, 'create', plan);
  const canUpdate = !!spec.update && planAllows(spec, 'update', plan);
  const canRemove = !!spec.remove && planAllows(spec, 'remove', plan);
  const pageNo = Number(query.get('page') ?? '1') || 1;
  const formUrl = (extra: Record<string, string>) => screenUrl(spec.kind, new URLSearchParams([...listParams(query), ...Object.entries(extra)]));
  const planNotices = [
    spec.create && !canCreate ? t('masters.planNoCreate', { plan }) : null,
    spec.update && !canUpdate ? t('masters.planNoUpdate', { plan }) : null,
    spec.remove && !canRemove ? t('masters.planNoRemove', { plan }) : null,
  ].filter((n): n is string => !!n);

  if (gated) {
    return (
      <div className="notice" role="note" data-testid="plan-notice">
        <p>{t('masters.restaurantOnly', { plan })}</p>
        <button type="button" className="secondary outline" onClick={() => setShowAnyway(true)}>
          {t('masters.showAnyway')}
        </button>
      </div>
    );
  }

  return (
    <>
      {spec.intro ? <p>{spec.intro[lang]}</p> : null}
      {planNotices.map((n) => (
        <p key={n} className="notice" role="note" data-testid="plan-notice">
          {n}
        </p>
      ))}
      {spec.scope ? (
        <label className="master-scope">
          {spec.scope.label[lang]}
          <select value={scopeValue} onChange={(e) => apply({ [spec.scope!.param]: e.target.value, page: '' })} name={spec.scope.param}>
            {scopeValue ? null : <option value="">{t('masters.scopeMissing')}</option>}
            {(refs[spec.scope.ref] ?? []).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <ListFilters spec={spec} query={query} refs={refs} problem={problem} prop={prop} apply={apply} />
      {canCreate ? (
        <p>
          <Link to={formUrl({ new: '1' })} role="button" data-testid="master-create">
            {t('common.create')}
          </Link>
        </p>
      ) : null}
      {status ? (
        <p role="status" className="notice" data-testid="master-status">
          {status}
        </p>
      ) : null}
      <FormProblem problem={problem} shown={[...Object.keys(spec.filters ?? {}), 'sort', 'limit']} />
      <MasterTable
        spec={spec}
        rows={page?.rows ?? null}
        loaded={page?.loaded ?? ''}
        refs={refs}
        prop={prop}
        sort={query.get('sort') ?? ''}
        editUrl={(id) => formUrl({ edit: id })}
        canUpdate={canUpdate}
        onDelete={
          canRemove
            ? (row) => {
                setDeleteProblem(null);
                setPending(row);
              }
            : undefined
        }
      />
      {spec.paging && page && (page.hasPrev || page.hasNext || pageNo > 1) ? (
        <Pager
          label={t('masters.paging')}
          className="master-paging"
          buttonClass="secondary"
          page={pageNo}
          pageText={t('masters.page', { page: pageNo })}
          hasPrev={page.hasPrev}
          hasNext={page.hasNext}
          go={(to) => apply({ page: String(to) })}
          testId="master-page"
        />
      ) : null}
      <ConfirmDialog
        open={!!pending}
        title={t('masters.confirmTitle')}
        message={t('masters.confirmDelete', { name: rowName(spec, pending) })}
        confirmLabel={t('masters.deleteConfirm')}
        cancelLabel={t('common.cancel')}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPending(null)}
      >
        <FormProblem problem={deleteProblem} />
      </ConfirmDialog>
    </>
  );
}
