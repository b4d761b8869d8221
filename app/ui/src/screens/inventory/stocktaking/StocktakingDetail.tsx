import { useMemo, useState } from 'react';
import { call, useApi } from '../../../api/client';
import type { ProblemView } from '../../../api/problem';
import { Facts } from '../../../components/Facts';
import { FormProblem } from '../../../components/FormProblem';
import { Loading } from '../../../components/LoadState';
import { useT } from '../../../i18n';
import { navigate } from '../../../router';
import { useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { readAllPages } from '../../../shared/paging';
import { ConfirmDialog } from '../../masters/ConfirmDialog';
import type { Refs } from '../data';
import { RecordHeading } from '../record';
import { CountTable, differenceOf, problemText, type Line } from './CountTable';
import { messages } from './i18n';
import { ScanForm } from './ScanForm';
import type { Stocktaking } from './StocktakingList';
import { whole, wholeRows } from './whole';

const PAGES = { maxPages: 20 };
const refusalText = (p: ProblemView | null) => (p ? problemText(p) : null);

/**
 * One stocktaking (`#/inventory/stocktaking/<id>`): its facts; while counting, scan-style entry
 * and the target products with their stock, count and difference, then completing it (after a
 * confirmation: the counts become the stock) or deleting it; once complete, the counts with the
 * stock before them.
 */
export function StocktakingDetail({ id, refs, created }: { id: string; refs: Refs; created: boolean }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const path = { ...contract, stocktaking_info_id: id };
  const head = useLoad(`head:${id}`, () => whole<Stocktaking>(call(api.GET('/{contract_id}/pos/stocktaking/{stocktaking_info_id}', { params: { path } }))));
  const stocktaking = head.state === 'done' ? head.data : null;
  const counting = stocktaking?.status === '0';
  const products = useLoad(stocktaking ? `lines:${id}:${stocktaking.status}` : null, () =>
    readAllPages((page) => wholeRows<Line>(call(api.GET('/{contract_id}/pos/stocktaking/{stocktaking_info_id}/products', { params: { path, query: { limit: '1000', page: String(page), sort: 'productId' } } }))), PAGES),
  );
  const stock = useLoad(stocktaking && counting ? `stock:${stocktaking.storeId}` : null, () =>
    readAllPages((page) => call(api.GET('/{contract_id}/pos/stock', { params: { path: contract, query: { store_id: stocktaking!.storeId, limit: '1000', page: String(page) } } })), PAGES),
  );
  // The lines as answered, with the counts entered since in place. An entered line belongs to the
  // answer it was entered on: the render that brings a new answer (completing: the stock before
  // each count) shows that answer's lines, never the older ones.
  const answered = products.state === 'done' ? products.data : null;
  const [entered, setEntered] = useState<{ on: Line[] | null; lines: Map<string, Line> }>({ on: null, lines: new Map() });
  const lines = useMemo(() => (answered ?? []).map((l) => (entered.on === answered ? entered.lines.get(l.productId) : undefined) ?? l), [answered, entered]);
  const stockNow = useMemo(() => new Map((stock.state === 'done' ? stock.data : []).map((s) => [s.productId, s.stockAmount])), [stock]);
  const [notice, setNotice] = useState(created ? t('stk.created') : '');
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [confirm, setConfirm] = useState<'complete' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [onlyDiff, setOnlyDiff] = useState(false);

  if (!stocktaking) return head.state === 'error' ? <FormProblem problem={head.problem} /> : <Loading />;
  const stockOf = (l: Line) => (counting ? (stockNow.get(l.productId) ?? '0') : (l.stockQuantityBeforeAdjustment ?? '0'));
  const counted = lines.filter((l) => l.inputStocktakingQuantity !== null).length;
  const shown = onlyDiff ? lines.filter((l) => (differenceOf(l.inputStocktakingQuantity, stockOf(l)) ?? 0) !== 0) : lines;

  /** Enters one count and puts the line the API answers in place; answers the refusal's text. */
  const enter = async (productId: string, count: string | null): Promise<ProblemView | null> => {
    const r = await call(api.PATCH('/{contract_id}/pos/stocktaking/{stocktaking_info_id}/products', { params: { path }, body: { products: [{ productId, inputStocktakingQuantity: count }] } }));
    if (!r.ok) return r.problem;
    const line = r.data[0]!;
    setEntered((e) => ({ on: answered, lines: new Map(e.on === answered ? e.lines : []).set(line.productId, line) }));
    setNotice(t('stk.entered', { product: refs.productLabel(productId), count: count ?? t('stk.notCounted') }));
    return null;
  };
  const act = async (kind: 'complete' | 'delete') => {
    setBusy(true);
    setProblem(null);
    const r =
      kind === 'complete'
        ? await call(api.POST('/{contract_id}/pos/stocktaking/{stocktaking_info_id}/complete', { params: { path } }))
        : await call(api.DELETE('/{contract_id}/pos/stocktaking/{stocktaking_info_id}', { params: { path } }));
    setBusy(false);
    setConfirm(null);
    if (!r.ok) return setProblem(r.problem);
    if (kind === 'delete') return navigate('/inventory/stocktaking');
    setNotice(t('stk.completed'));
    head.reload();
  };

  return (
    <div className="inv-detail" data-testid="stocktaking-detail" data-status={stocktaking.status}>
      <RecordHeading t={t} back="/inventory/stocktaking" heading={t('stk.heading', { id: stocktaking.stocktakingInfoId })} notice={notice} />
      <article className="inv-summary">
        <Facts
          items={[
            { label: t('inv.store'), value: stocktaking.storeName ?? refs.storeName(stocktaking.storeId), valueProps: { 'data-testid': 'store' } },
            { label: t('stk.date'), value: format.date(stocktaking.stocktakingDate) },
            { label: t('stk.target'), value: <TargetText id={id} target={stocktaking.targetDivision} />, valueProps: { 'data-testid': 'target' } },
            { label: t('inv.status'), value: t(`stk.status.${stocktaking.status}`), valueProps: { 'data-testid': 'status' } },
            !counting && { label: t('stk.completedAt'), value: stocktaking.stocktakingCompleteDateTime ? format.dateTime(stocktaking.stocktakingCompleteDateTime) : '' },
            !!stocktaking.memo && { label: t('stk.memo'), value: stocktaking.memo, className: 'inv-wide' },
          ]}
        />
        {counting ? (
          <div className="inv-buttons">
            <button type="button" disabled={busy || counted === 0} onClick={() => setConfirm('complete')}>
              {t('stk.complete')}
            </button>
            <button type="button" className="secondary outline" disabled={busy} onClick={() => setConfirm('delete')}>
              {t('stk.delete')}
            </button>
          </div>
        ) : (
          <p className="inv-muted">{t('stk.closed')}</p>
        )}
        <FormProblem problem={problem} />
      </article>
      {counting ? <ScanForm refs={refs} countOf={(pid) => lines.find((l) => l.productId === pid)?.inputStocktakingQuantity ?? null} enter={enter} /> : null}
      <div className="stk-table-head">
        <h3>{t('stk.products')}</h3>
        <span data-testid="progress">{t('stk.productsCount', { counted, total: lines.length })}</span>
        <label>
          <input type="checkbox" role="switch" checked={onlyDiff} onChange={(e) => setOnlyDiff(e.target.checked)} />
          {t('stk.onlyDiff')}
        </label>
      </div>
      {products.state === 'error' ? (
        <FormProblem problem={products.problem} />
      ) : products.state === 'loading' || (counting && stock.state === 'loading') ? (
        <Loading />
      ) : (
        <CountTable lines={shown} refs={refs} stockOf={stockOf} counting={counting} save={async (pid, count) => refusalText(await enter(pid, count))} />
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'delete' ? t('stk.delete') : t('stk.complete')}
        message={confirm === 'delete' ? t('stk.deleteConfirm') : t('stk.completeConfirm', { n: counted })}
        confirmLabel={confirm === 'delete' ? t('stk.deleteYes') : t('stk.completeYes')}
        cancelLabel={t('stk.cancel')}
        busy={busy}
        onConfirm={() => void act(confirm!)}
        onCancel={() => setConfirm(null)}
      />
    </div>
  );
}

/** What a stocktaking counts, with the names of its target categories (GET /stocktaking/{id}/categories). */
function TargetText({ id, target }: { id: string; target: '0' | '1' | '2' }) {
  const t = useT(messages);
  const { api, contract } = useApi();
  const names = useLoad(target === '1' ? `categories:${id}` : null, async () => {
    const [targets, all] = await Promise.all([
      call(api.GET('/{contract_id}/pos/stocktaking/{stocktaking_info_id}/categories', { params: { path: { ...contract, stocktaking_info_id: id }, query: { limit: '1000' } } })),
      readAllPages((page) => call(api.GET('/{contract_id}/pos/categories', { params: { path: contract, query: { limit: '1000', page: String(page), fields: 'categoryId,categoryName' } } })), PAGES),
    ]);
    if (!targets.ok) return targets;
    const byId = new Map((all.ok ? all.data : []).map((c) => [c.categoryId, c.categoryName]));
    return { ok: true as const, response: targets.response, data: targets.data.map((c) => byId.get(c.categoryId) ?? c.categoryId).join('、') };
  });
  if (target !== '1') return <>{t(`stk.targetIs.${target}`)}</>;
  return <>{t('stk.targetIs.1', { names: names.state === 'done' ? names.data : '…' })}</>;
}
