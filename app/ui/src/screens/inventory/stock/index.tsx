import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { DataTable } from '../../../components/DataTable';
import { FilterBar, SelectFilter } from '../../../components/FilterBar';
import { LoadState } from '../../../components/LoadState';
import { useLang, useT } from '../../../i18n';
import { navigate, type ScreenProps } from '../../../router';
import { useFormat, quantity } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { withQuery, type Refs } from '../data';
import { InventoryFrame, Paging } from '../Frame';
import { ProductDatalist } from '../ProductField';
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
  const isSelected = (s: { storeId?: string; productId?: string }) => !!selected && selected.storeId === s.storeId && selected.productId === s.productId;
  const go = (changes: Record<string, string | null>) => navigate(`${BASE}${withQuery(query, changes)}`);
  const filter = (e: FormEvent) => {
    e.preventDefault();
    go({ product: productText.trim() ? refs.resolveProduct(productText) : null });
  };
  const listId = 'stock-products';

  return (
    <>
      <FilterBar label={t('inv.filter')} onSubmit={filter}>
        <SelectFilter label={t('inv.store')} name="store" value={query.get('store') ?? ''} onChange={(v) => go({ store: v })} any={t('inv.allStores')} options={refs.storeChoices} />
        <label>
          {t('st.product')}
          <input name="product" list={listId} autoComplete="off" value={productText} onChange={(e) => setProductText(e.target.value)} />
        </label>
        <ProductDatalist id={listId} refs={refs} />
        <button type="submit">{t('common.search')}</button>
        <button type="button" className="secondary outline" onClick={() => (setProductText(''), navigate(BASE))}>
          {t('inv.clear')}
        </button>
      </FilterBar>
      <div className="inv-stock-detail">
        <div>
          <LoadState value={list} empty={t('st.noStock')} isEmpty={(page) => !page.rows.length}>
            {(page) => (
              <DataTable
                className="inv-table"
                data-testid="stock-table"
                rows={page.rows}
                rowKey={(s) => `${s.storeId}:${s.productId}`}
                rowProps={(s) => ({ 'data-store': s.storeId, 'data-product': s.productId, 'aria-selected': isSelected(s) })}
                columns={[
                  { key: 'store', header: t('inv.store'), cell: (s) => refs.storeName(s.storeId) },
                  { key: 'product', header: t('inv.product'), cell: (s) => refs.productLabel(s.productId) },
                  { key: 'amount', header: t('st.amount'), num: true, cell: (s) => quantity(s.stockAmount, lang), cellProps: () => ({ 'data-testid': 'amount' }) },
                  { key: 'updated', header: t('inv.updated'), cell: (s) => format.dateTime(s.updDateTime) },
                  {
                    key: 'history',
                    header: <span className="visually-hidden">{t('st.history')}</span>,
                    cell: (s) => (
                      <button
                        type="button"
                        className="secondary outline inv-small"
                        aria-label={t('st.showHistory', { store: refs.storeName(s.storeId), product: refs.productLabel(s.productId) })}
                        aria-pressed={isSelected(s)}
                        onClick={() => go({ sel: `${s.storeId}:${s.productId}`, page: query.get('page') })}
                      >
                        {t('st.history')}
                      </button>
                    ),
                  },
                ]}
              />
            )}
          </LoadState>
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
