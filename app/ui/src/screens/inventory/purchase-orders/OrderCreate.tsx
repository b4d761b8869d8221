import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { SelectField } from '../../../components/SelectField';
import { useT } from '../../../i18n';
import { Link, navigate } from '../../../router';
import { useFormat } from '../../../shared/format';
import type { Refs } from '../data';
import { remapPositions } from '../fields';
import { filled, useRecordForm } from '../form';
import { messages, ROUNDING_DIVISIONS } from './i18n';
import { OrderProducts, type OrderRow, newOrderRow, orderFieldNames } from './OrderProducts';

type Rounding = (typeof ROUNDING_DIVISIONS)[number];
const FIELDS = ['recipientOrderId', 'orderSourceStoreId', 'orderStaffName', 'orderedDate', 'status', 'roundingDivision', 'identificationNo', 'memo', 'products', 'stores'];

export interface StoreChoice {
  storeId: string;
  from: string;
  to: string;
}

/**
 * A new purchase order (4.14): the supplier, the delivery stores with their expected dates, and
 * per product a quantity for each delivery store. The API fills what is left empty (dates =
 * registration date, cost and tax rate from the product) and sums each product's quantity.
 */
export function OrderCreate({ refs }: { refs: Refs }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const { values: v, problem, setProblem, busy, setBusy, choose, set, err } = useRecordForm({
    recipientOrderId: '',
    orderSourceStoreId: refs.stores[0]?.storeId ?? '',
    orderStaffName: '',
    orderedDate: format.today(),
    status: '2' as '2' | '5',
    roundingDivision: '1' as Rounding,
    identificationNo: '',
    memo: '',
  });
  const [stores, setStores] = useState<StoreChoice[]>([]);
  const [rows, setRows] = useState<OrderRow[]>(() => [newOrderRow()]);
  // Chosen stores keep the order of the store list, so a column and `stores[j]` are the same store.
  const chosen = refs.stores.flatMap((s) => stores.filter((c) => c.storeId === s.storeId));
  const toggle = (storeId: string, on: boolean) => setStores((cs) => (on ? [...cs, { storeId, from: '', to: '' }] : cs.filter((c) => c.storeId !== storeId)));
  const setStore = (storeId: string, patch: Partial<StoreChoice>) => setStores((cs) => cs.map((c) => (c.storeId === storeId ? { ...c, ...patch } : c)));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const sentColumns: number[][] = [];
    const r = await call(
      api.POST('/{contract_id}/pos/purchase_orders', {
        params: { path: contract },
        body: {
          ...filled(v, 'recipientOrderId', 'orderSourceStoreId', 'orderStaffName', 'identificationNo', 'memo'),
          orderedDate: v.orderedDate,
          status: v.status,
          roundingDivision: v.roundingDivision,
          stores: chosen.map((c) => ({ storageStoreId: c.storeId, ...(c.from ? { storageExpectedDateFrom: c.from } : {}), ...(c.to ? { storageExpectedDateTo: c.to } : {}) })),
          products: rows.map((row) => {
            const columns: number[] = [];
            const deliveryStore = chosen.flatMap((c, j) => {
              const q = (row.quantities[c.storeId] ?? '').trim();
              if (!q) return [];
              columns.push(j);
              return [{ storeId: c.storeId, quantity: q }];
            });
            sentColumns.push(columns);
            return { productId: refs.resolveProduct(row.productId), ...(row.cost.trim() ? { cost: row.cost.trim() } : {}), deliveryStore };
          }),
        },
      }),
    );
    setBusy(false);
    if (r.ok) return navigate(`/inventory/purchase-orders/${r.data.storageInfoId}?created=1`);
    // `products[i].deliveryStore[k]` names the k-th quantity sent for product i: map it to its store column.
    setProblem(sentColumns.reduce((p, columns, i) => remapPositions(p, `products[${i}].deliveryStore`, columns), r.problem));
  };

  return (
    <form onSubmit={submit} className="inv-form" noValidate data-testid="order-create">
      <h2>{t('po.new')}</h2>
      <FormProblem problem={problem} shown={[...FIELDS, ...chosen.flatMap((_, j) => [`stores[${j}].storageStoreId`, `stores[${j}].storageExpectedDateFrom`, `stores[${j}].storageExpectedDateTo`]), ...orderFieldNames(rows.length, chosen.length)]} />
      <div className="inv-grid">
        <SelectField label={t('po.supplier')} name="recipientOrderId" value={v.recipientOrderId} onChange={choose('recipientOrderId')} any={t('po.noSupplier')} options={refs.supplierChoices} error={err('recipientOrderId')} />
        <SelectField label={t('po.sourceStore')} name="orderSourceStoreId" value={v.orderSourceStoreId} onChange={choose('orderSourceStoreId')} any={t('po.noSupplier')} options={refs.storeChoices} error={err('orderSourceStoreId')} />
        <Field label={t('po.staffName')} name="orderStaffName" value={v.orderStaffName} onChange={set('orderStaffName')} error={err('orderStaffName')} />
        <Field label={t('po.orderedDate')} name="orderedDate" type="date" value={v.orderedDate} onChange={set('orderedDate')} error={err('orderedDate')} />
        <SelectField
          label={t('po.registerAs')}
          name="status"
          value={v.status}
          onChange={choose('status')}
          options={(['2', '5'] as const).map((s) => ({ value: s, label: t(`po.status.${s}`) }))}
          error={err('status')}
        />
        <SelectField
          label={t('po.rounding')}
          name="roundingDivision"
          value={v.roundingDivision}
          onChange={choose('roundingDivision')}
          options={ROUNDING_DIVISIONS.map((d) => ({ value: d, label: t(`po.rounding.${d}`) }))}
          error={err('roundingDivision')}
        />
        <Field label={t('inv.identificationNo')} name="identificationNo" value={v.identificationNo} onChange={set('identificationNo')} error={err('identificationNo')} />
        <Field label={t('inv.memo')} name="memo" value={v.memo} onChange={set('memo')} error={err('memo')} />
      </div>
      <fieldset className="inv-lines">
        <legend>{t('po.deliveryStores')}</legend>
        <small className="inv-muted">{t('po.deliveryStoresHint')}</small>
        {err('stores') ? <small className="field-error" data-field="stores">{err('stores')}</small> : null}
        <div className="inv-stores">
          {refs.stores.map((s) => {
            const c = stores.find((x) => x.storeId === s.storeId);
            const j = chosen.findIndex((x) => x.storeId === s.storeId);
            return (
              <div key={s.storeId} className="inv-store-choice" data-store={s.storeId}>
                <label className="inv-check">
                  <input type="checkbox" name={`deliver-${s.storeId}`} checked={!!c} onChange={(e) => toggle(s.storeId, e.target.checked)} />
                  {s.storeName}
                </label>
                {err(`stores[${j}].storageStoreId`) ? <small className="field-error">{err(`stores[${j}].storageStoreId`)}</small> : null}
                {c ? (
                  <div className="inv-grid">
                    <Field label={t('po.expectedFrom')} name={`stores[${j}].storageExpectedDateFrom`} type="date" value={c.from} onChange={(e) => setStore(s.storeId, { from: e.target.value })} error={err(`stores[${j}].storageExpectedDateFrom`)} />
                    <Field label={t('po.expectedTo')} name={`stores[${j}].storageExpectedDateTo`} type="date" value={c.to} onChange={(e) => setStore(s.storeId, { to: e.target.value })} error={err(`stores[${j}].storageExpectedDateTo`)} />
                  </div>
                ) : null}
              </div>
            );
          })}
        </div>
      </fieldset>
      <OrderProducts rows={rows} onChange={setRows} stores={chosen.map((c) => c.storeId)} refs={refs} problem={problem} />
      <div className="inv-buttons">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('po.register')}
        </button>
        <Link to="/inventory/purchase-orders" role="button" className="secondary outline">
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
