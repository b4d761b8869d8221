import { useId, useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { SelectField } from '../../../components/SelectField';
import { useLang, useT } from '../../../i18n';
import { quantity } from '../../../shared/format';
import type { Refs } from '../data';
import { ProductDatalist, ProductField } from '../ProductField';
import { messages } from './i18n';

type Mode = 'set' | 'add';

/**
 * Sets a store's quantity of a product (PATCH /stock/{product_id}: recorded as a movement of the
 * difference) or adds to it (POST /stock/{product_id}/add; negative takes). The path's product
 * and store errors (`[product_id]`, `[store_id]`) are shown on the product and store fields.
 */
export function StockChangeForm({ refs, initial, onDone }: { refs: Refs; initial: { storeId: string; productId: string }; onDone(): void }) {
  const t = useT(messages);
  const { lang } = useLang();
  const { api, contract } = useApi();
  const listId = `stock-form-products-${useId()}`;
  const [storeId, setStoreId] = useState(initial.storeId);
  const [product, setProduct] = useState(initial.productId);
  const [mode, setMode] = useState<Mode>('set');
  const [amount, setAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const both = (...fields: string[]) => fields.map((f) => fieldError(problem, f)).filter(Boolean).join('; ') || undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    setDone('');
    const productId = refs.resolveProduct(product) || '0';
    const body = { storeId, stockAmount: amount.trim(), ...(memo.trim() ? { stockHistory: { memo: memo.trim() } } : {}) };
    const params = { path: { ...contract, product_id: productId } };
    const r = await call(mode === 'set' ? api.PATCH('/{contract_id}/pos/stock/{product_id}', { params, body }) : api.POST('/{contract_id}/pos/stock/{product_id}/add', { params, body }));
    setBusy(false);
    if (!r.ok) return setProblem(r.problem);
    setDone(t('st.setDone', { product: refs.productLabel(r.data.productId), store: refs.storeName(r.data.storeId), amount: quantity(r.data.stockAmount, lang) }));
    setAmount('');
    setMemo('');
    onDone();
  };

  return (
    <form className="inv-form inv-panel" onSubmit={submit} noValidate data-testid="stock-form">
      <h3>{t('st.form')}</h3>
      <p role="status" className="inv-notice">
        {done}
      </p>
      <FormProblem problem={problem} shown={['storeId', 'store_id', 'product_id', 'stockAmount', 'stockHistory.memo', 'stockHistory']} />
      <SelectField label={t('inv.store')} name="storeId" value={storeId} onChange={setStoreId} options={refs.storeChoices} error={both('storeId', 'store_id')} />
      <ProductField refs={refs} label={t('st.product')} name="product_id" list={listId} value={product} onChange={setProduct} error={both('product_id')} />
      <ProductDatalist id={listId} refs={refs} />
      <fieldset>
        <legend>{t('st.mode')}</legend>
        {(['set', 'add'] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            {t(`st.mode.${m}`)}
          </label>
        ))}
      </fieldset>
      <Field
        label={mode === 'set' ? t('st.setAmount') : t('st.addAmount')}
        name="stockAmount"
        type="number"
        step={1}
        inputMode="numeric"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={both('stockAmount')}
      />
      <Field label={t('st.memo')} name="stockHistory.memo" value={memo} onChange={(e) => setMemo(e.target.value)} error={both('stockHistory.memo', 'stockHistory')} />
      <button type="submit" disabled={busy} aria-busy={busy}>
        {t('st.apply')}
      </button>
    </form>
  );
}
