import { useState } from 'react';
import { call, useApi } from '../../../api/client';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat, quantity } from '../../../shared/format';
import { useLang, useT } from '../../../i18n';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { type Refs } from '../data';
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
      {list.state === 'error' ? <FormProblem problem={list.problem} /> : null}
      {list.state === 'loading' ? <p aria-busy="true">{t('common.loading')}</p> : null}
      {list.state === 'done' && !list.data.rows.length ? <p>{t('st.noMovements')}</p> : null}
      {list.state === 'done' && list.data.rows.length ? (
        <table className="inv-table inv-movements">
          <thead>
            <tr>
              <th scope="col">{t('st.when')}</th>
              <th scope="col">{t('st.division')}</th>
              <th scope="col" className="num">
                {t('st.change')}
              </th>
              <th scope="col" className="num">
                {t('st.after')}
              </th>
              <th scope="col">{t('st.stores')}</th>
              <th scope="col">{t('st.staff')}</th>
              <th scope="col">{t('inv.memo')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.rows.map((m) => (
              <tr key={m.id} data-division={m.stockDivision}>
                <td>{format.dateTime(m.updDateTime)}</td>
                <td>{t(`st.division.${m.stockDivision}`)}</td>
                <td className="num" data-testid="change">
                  {signed(m.amount)}
                </td>
                <td className="num">{quantity(m.stockAmount, lang)}</td>
                <td>{m.fromStoreId && m.toStoreId ? `${refs.storeName(m.fromStoreId)} → ${refs.storeName(m.toStoreId)}` : ''}</td>
                <td>{m.staffName ?? m.staffId ?? ''}</td>
                <td>{m.memo ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.state === 'done' && (list.data.hasPrev || list.data.hasNext) ? (
        <nav className="inv-paging" aria-label={t('inv.paging')}>
          <button type="button" className="secondary outline" disabled={!list.data.hasPrev} onClick={() => setPage((p) => p - 1)}>
            {t('common.prev')}
          </button>
          <span>{t('inv.page', { page })}</span>
          <button type="button" className="secondary outline" disabled={!list.data.hasNext} onClick={() => setPage((p) => p + 1)}>
            {t('common.next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}
