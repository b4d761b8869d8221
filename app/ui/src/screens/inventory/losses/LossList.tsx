import { call, useApi, type Result } from '../../../api/client';
import type { components } from '../../../api/schema';
import { useT } from '../../../i18n';
import { useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { asPage, type PageOf } from '../../../shared/paging';
import type { Refs } from '../data';
import { RecordList } from '../RecordList';
import type { Divisions } from './data';
import { messages } from './i18n';

type LossHead = components['schemas']['LossHead'];

const PAGE_SIZE = '50';

/** Losses, newest first: filters store and division (`?store=&division=&page=`). */
export function LossList({ query, refs, divisions }: { query: URLSearchParams; refs: Refs; divisions: Divisions }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const q = { store_id: query.get('store') || undefined, division: query.get('division') || undefined, page: query.get('page') || undefined };
  // Without `fields` every head comes whole (the document types the list's answer as any subset).
  const list = useLoad(JSON.stringify(q), () =>
    asPage(call(api.GET('/{contract_id}/pos/losses', { params: { path: contract, query: { ...q, limit: PAGE_SIZE, sort: 'lossId:desc' } } }))) as Promise<Result<PageOf<LossHead>>>,
  );
  return (
    <RecordList<LossHead>
      base="/inventory/losses"
      query={query}
      newLabel={t('ls.new')}
      filters={[
        { name: 'store', label: t('inv.store'), value: q.store_id ?? '', any: t('inv.allStores'), options: refs.storeChoices },
        { name: 'division', label: t('ls.division'), value: q.division ?? '', any: t('ls.allDivisions'), options: divisions.choices },
      ]}
      list={list}
      testId="losses-table"
      rowAttribute="data-loss"
      names={{ id: (l) => l.lossId, openLabel: (l) => t('ls.openOne', { id: l.lossId }), status: (l) => divisions.label(l.division) }}
      columns={({ id, status, identificationNo, updated }) => [
        id,
        { key: 'at', header: t('ls.lossDateTime'), cell: (l) => format.dateTime(l.lossDateTime) },
        { key: 'store', header: t('inv.store'), cell: (l) => refs.storeName(l.storeId) },
        { ...status, key: 'division', header: t('ls.division'), cellProps: () => ({ 'data-testid': 'division' }) },
        { key: 'staff', header: t('ls.staff'), cell: (l) => l.staffName ?? '' },
        identificationNo,
        { key: 'memo', header: t('inv.memo'), cell: (l) => l.memo ?? '' },
        updated,
      ]}
    />
  );
}
