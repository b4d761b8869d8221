import { useState } from 'react';
import { call, useApi } from '../../../api/client';
import { DataTable } from '../../../components/DataTable';
import { LoadState } from '../../../components/LoadState';
import { Pager } from '../../../components/Pager';
import { useLang, useT } from '../../../i18n';
import { quantity, useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import type { Refs } from '../data';
import { messages } from './i18n';

const PAGE_SIZE = '20';

/** One store's stock history of one product (GET /stock/changes), newest first, with the platform's stock division. */
export function Movements({ storeId, productId, refs }: { storeId: string; productId: string; refs: Refs }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const [page, setPage] = useState(1);
  const list = useLoad(`${storeId}:${productId}:${page}`, () =>
    asPage(
      call(
        api.GET('/{contract_id}/pos/stock/changes/{product_id}/{store_id}', {
          params: { path: { ...contract, product_id: productId, store_id: storeId }, query: { sort: 'id:desc', limit: PAGE_SIZE, page: String(page) } },
        }),
      ),
    ),
  );
  const signed = (v: string) => (Number(v) > 0 ? `+${quantity(v, lang)}` : quantity(v, lang));

  return (
    <section data-testid="movements" className="inv-panel">
      <h3>{t('st.movements', { store: refs.storeName(storeId), product: refs.productLabel(productId) })}</h3>
      <LoadState value={list} empty={t('st.noMovements')} isEmpty={(p) => !p.rows.length}>
        {(p) => (
          <DataTable
            className="inv-table inv-movements"
            rows={p.rows}
            rowKey={(m) => m.id}
            rowProps={(m) => ({ 'data-division': m.stockDivision })}
            columns={[
              { key: 'when', header: t('st.when'), cell: (m) => format.dateTime(m.updDateTime) },
              { key: 'division', header: t('st.division'), cell: (m) => t(`st.division.${m.stockDivision}`) },
              { key: 'change', header: t('st.change'), num: true, cell: (m) => signed(m.amount), cellProps: () => ({ 'data-testid': 'change' }) },
              { key: 'after', header: t('st.after'), num: true, cell: (m) => quantity(m.stockAmount, lang) },
              { key: 'stores', header: t('st.stores'), cell: (m) => (m.fromStoreId && m.toStoreId ? `${refs.storeName(m.fromStoreId)} → ${refs.storeName(m.toStoreId)}` : '') },
              { key: 'staff', header: t('st.staff'), cell: (m) => m.staffName ?? m.staffId ?? '' },
              { key: 'memo', header: t('inv.memo'), cell: (m) => m.memo ?? '' },
            ]}
          />
        )}
      </LoadState>
      {list.state === 'done' && (list.data.hasPrev || list.data.hasNext) ? (
        <Pager label={t('inv.paging')} className="inv-paging" page={page} pageText={t('inv.page', { page })} hasPrev={list.data.hasPrev} hasNext={list.data.hasNext} go={setPage} live={false} />
      ) : null}
    </section>
  );
}
