import { call, useApi } from '../../../api/client';
import { DataTable } from '../../../components/DataTable';
import { LoadState } from '../../../components/LoadState';
import { useLang, useT } from '../../../i18n';
import { quantity, useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import type { Refs } from '../data';
import { messages } from './i18n';

/**
 * The storages (入荷) an ordered purchase order made, one per delivery store: how far each store
 * has received its goods (status, storage date, counted of scheduled). Read only: the stores
 * record their counts through PATCH /storage/{storage_id}.
 */
export function OrderStorages({ orderId, refs }: { orderId: string; refs: Refs }) {
  const { api, contract } = useApi();
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const loaded = useLoad(orderId, () =>
    call(api.GET('/{contract_id}/pos/storage', { params: { path: contract, query: { storage_info_id: orderId, with_details: 'all', sort: 'storageId' } } })),
  );
  return (
    <section aria-label={t('po.storages')}>
      <h3>{t('po.storages')}</h3>
      <LoadState value={loaded}>
        {(storages) =>
          storages.length === 0 ? (
            <p className="inv-muted">{t('po.noStorages')}</p>
          ) : (
            <DataTable
              wrap="inv-table-wrap"
              className="inv-table"
              data-testid="order-storages"
              rows={storages}
              rowKey={(s) => s.storageId}
              rowProps={(s) => ({ 'data-store': s.storageStoreId })}
              columns={[
                { key: 'store', header: t('po.deliveryStore'), cell: (s) => refs.storeName(s.storageStoreId) },
                { key: 'status', header: t('inv.status'), cell: (s) => t(`po.storageStatus.${s.status}`), cellProps: () => ({ 'data-testid': 'storage-status' }) },
                { key: 'date', header: t('po.storageDate'), cell: (s) => (s.storageDate ? format.date(s.storageDate) : '') },
                {
                  key: 'counted',
                  header: t('po.counted'),
                  num: true,
                  cell: (s) => {
                    const details = s.details ?? [];
                    const counted = details.reduce((n, d) => n + Number(d.inspectionQuantity ?? 0), 0);
                    const scheduled = details.reduce((n, d) => n + Number(d.scheduledQuantity), 0);
                    return `${quantity(counted, lang)} / ${quantity(scheduled, lang)}`;
                  },
                  cellProps: () => ({ 'data-testid': 'storage-counted' }),
                },
              ]}
            />
          )
        }
      </LoadState>
    </section>
  );
}
