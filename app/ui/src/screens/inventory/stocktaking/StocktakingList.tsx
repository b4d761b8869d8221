import { call, useApi } from '../../../api/client';
import type { components } from '../../../api/schema';
import { useT } from '../../../i18n';
import { useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { asPage } from '../../../shared/paging';
import { oneOf, type Refs } from '../data';
import { RecordList } from '../RecordList';
import { messages, STOCKTAKING_STATUSES } from './i18n';
import { wholeRows } from './whole';

export type Stocktaking = components['schemas']['Stocktaking'];

const PAGE_SIZE = '50';

/** Stocktakings, newest first, filtered by store and status (`?store=&status=&page=`). */
export function StocktakingList({ query, refs }: { query: URLSearchParams; refs: Refs }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const q = { store_id: query.get('store') || undefined, status: oneOf(STOCKTAKING_STATUSES, query.get('status')), page: query.get('page') || undefined };
  const list = useLoad(JSON.stringify(q), () =>
    asPage(wholeRows<Stocktaking>(call(api.GET('/{contract_id}/pos/stocktaking', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'stocktakingInfoId:desc' } } })))),
  );
  return (
    <RecordList<Stocktaking>
      base="/inventory/stocktaking"
      query={query}
      newLabel={t('stk.new')}
      filters={[
        { name: 'store', label: t('inv.store'), value: q.store_id ?? '', any: t('inv.allStores'), options: refs.storeChoices },
        { name: 'status', label: t('inv.status'), value: q.status ?? '', any: t('inv.any'), options: STOCKTAKING_STATUSES.map((s) => ({ value: s, label: t(`stk.status.${s}`) })) },
      ]}
      list={list}
      testId="stocktaking-table"
      rowAttribute="data-stocktaking"
      names={{ id: (s) => s.stocktakingInfoId, openLabel: (s) => t('stk.openOne', { id: s.stocktakingInfoId }), status: (s) => t(`stk.status.${s.status}`) }}
      columns={({ id, status, updated }) => [
        id,
        { key: 'date', header: t('stk.date'), cell: (s) => format.date(s.stocktakingDate) },
        { key: 'store', header: t('inv.store'), cell: (s) => s.storeName ?? refs.storeName(s.storeId) },
        { key: 'target', header: t('stk.target'), cell: (s) => t(`stk.kind.${s.targetDivision}`) },
        status,
        { key: 'memo', header: t('stk.memo'), cell: (s) => s.memo ?? '' },
        updated,
      ]}
    />
  );
}
