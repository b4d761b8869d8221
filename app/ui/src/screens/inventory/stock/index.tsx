import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat, quantity } from '../../../shared/format';
import { useLang, useT } from '../../../i18n';
import { navigate, type ScreenProps } from '../../../router';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { withQuery, type Refs } from '../data';
import { InventoryFrame, Paging } from '../Frame';
import { WithRefs } from '../WithRefs';
import { messages } from './i18n';
import { Movements } from './Movements';
import { StockChangeForm } from './StockChangeForm';

const BASE = '/inventory/stock';
const PAGE_SIZE = '50';

/**
 * `#/inventory/stock?store=&product=&page=&sel=<store>:<product>`: quantities by store and
 * product (filters and paging from the API), the selected row's movements with their causes,
 * and a form to set or adjust a quantity.
 */
export function StockScreen({ query }: ScreenProps) {
  const t = useT(messages);
  return (
    <InventoryFrame title={t('inv.stock')} testId="stock-screen">
      <WithRefs>{(refs) => <Stock query={query} refs={refs} />}</WithRefs>
    </InventoryFrame>
  );
}

function Stock({ query, refs }: { query: URLSearchParams; refs: Refs }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const [productText, setProductText] = useState(query.get('product') ?? '');
  const [tick, setTick] = useState(0);
  const q = { store_id: query.get('store') || undefined, product_id: query.get('product') || undefined, page: query.get('page') || undefined };
  const list = useLoad(`${JSON.stringify(q)}:${tick}`, () =>
    asPage(call(api.GET('/{contract_id}/pos/stock', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'storeId,productId' } } }))),
  );
  const [selStore, selProduct] = (query.get('sel') ?? '').split(':');
  const selected = selStore && selProduct ? { storeId: selStore, productId: selProduct } : null;
  const go = (changes: Record<string, string | null>) => navigate(`${BASE}${withQuery(query, changes)}`);
  const filter = (e: FormEvent) => {
    e.preventDefault();
    go({ product: productText.trim() ? refs.resolveProduct(productText) : null });
  };
  const listId = 'stock-products';

  return (
    <>
      <form className="inv-filters" aria-label={t('inv.filter')} onSubmit={filter}>
        <label>
          {t('inv.store')}
          <select name="store" value={query.get('store') ?? ''} onChange={(e) => go({ store: e.target.value })}>
            <option value="">{t('inv.allStores')}</option>
            {refs.stores.map((s) => (
              <option key={s.storeId} value={s.storeId}>
                {s.storeName}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('st.product')}
          <input name="product" list={listId} autoComplete="off" value={productText} onChange={(e) => setProductText(e.target.value)} />
        </label>
        <datalist id={listId}>
          {refs.products.map((p) => (
            <option key={p.productId} value={p.productId}>
              {`${p.productCode} ${p.productName}`}
            </option>
          ))}
        </datalist>
        <button type="submit">{t('common.search')}</button>
        <button type="button" className="secondary outline" onClick={() => (setProductText(''), navigate(BASE))}>
          {t('inv.clear')}
        </button>
      </form>
      <div className="inv-stock-detail">
        <div>
          {list.state === 'error' ? <FormProblem problem={list.problem} /> : null}
          {list.state === 'loading' ? <p aria-busy="true">{t('common.loading')}</p> : null}
          {list.state === 'done' && !list.data.rows.length ? <p>{t('st.noStock')}</p> : null}
          {list.state === 'done' && list.data.rows.length ? (
            <table className="inv-table" data-testid="stock-table">
              <thead>
                <tr>
                  <th scope="col">{t('inv.store')}</th>
                  <th scope="col">{t('inv.product')}</th>
                  <th scope="col" className="num">
                    {t('st.amount')}
                  </th>
                  <th scope="col">{t('inv.updated')}</th>
                  <th scope="col">
                    <span className="inv-sr">{t('st.history')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.rows.map((s) => {
                  const isSelected = !!selected && selected.storeId === s.storeId && selected.productId === s.productId;
                  return (
                    <tr key={`${s.storeId}:${s.productId}`} data-store={s.storeId} data-product={s.productId} aria-selected={isSelected}>
                      <td>{refs.storeName(s.storeId)}</td>
                      <td>{refs.productLabel(s.productId)}</td>
                      <td className="num" data-testid="amount">
                        {quantity(s.stockAmount, lang)}
                      </td>
                      <td>{format.dateTime(s.updDateTime)}</td>
                      <td>
                        <button
                          type="button"
                          className="secondary outline inv-small"
                          aria-label={t('st.showHistory', { store: refs.storeName(s.storeId), product: refs.productLabel(s.productId) })}
                          aria-pressed={isSelected}
                          onClick={() => go({ sel: `${s.storeId}:${s.productId}`, page: query.get('page') })}
                        >
                          {t('st.history')}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : null}
          {list.state === 'done' ? <Paging base={BASE} query={query} hasPrev={list.data.hasPrev} hasNext={list.data.hasNext} /> : null}
          {selected ? <Movements key={`${query.get('sel')}:${tick}`} storeId={selected.storeId} productId={selected.productId} refs={refs} /> : <p className="inv-muted">{t('st.pick')}</p>}
        </div>
        <StockChangeForm
          key={query.get('sel') ?? ''}
          refs={refs}
          initial={selected ?? { storeId: query.get('store') ?? refs.stores[0]?.storeId ?? '', productId: query.get('product') ?? '' }}
          onDone={() => setTick((n) => n + 1)}
        />
      </div>
    </>
  );
}
