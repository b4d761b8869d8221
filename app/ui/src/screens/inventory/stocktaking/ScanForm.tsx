import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ProblemView } from '../../../api/problem';
import { Field } from '../../../components/Field';
import { useT } from '../../../i18n';
import type { Refs } from '../data';
import { problemText } from './CountTable';
import { messages } from './i18n';

const CODE_ID = 'stk-code';
const COUNT_ID = 'stk-count';

/**
 * Scan-style count entry: a product code (or id) and Enter. With "add one per scan" each Enter
 * adds 1 to the product's count and the code field stays ready for the next scan; otherwise Enter
 * moves to the count, whose Enter replaces the product's count and comes back to the code.
 */
export function ScanForm({
  refs,
  countOf,
  enter,
}: {
  refs: Refs;
  /** The product's count entered so far (null: not counted). */
  countOf(productId: string): string | null;
  /** Sends one count; answers the API's refusal, or null when it is entered. */
  enter(productId: string, count: string): Promise<ProblemView | null>;
}) {
  const t = useT(messages);
  const focus = (id: string) => document.getElementById(id)?.focus();
  const [code, setCode] = useState('');
  const [count, setCount] = useState('');
  const [addOne, setAddOne] = useState(true);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const send = async () => {
    const productId = refs.resolveProduct(code);
    if (!refs.product(productId)) return setError(t('stk.unknownCode', { code: code.trim() }));
    const value = addOne ? String(Number(countOf(productId) ?? '0') + 1) : count.trim();
    setBusy(true);
    const refused = await enter(productId, value);
    setBusy(false);
    if (refused) return setError(problemText(refused));
    setError('');
    setCode('');
    setCount('');
    focus(CODE_ID);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const onCodeKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' || addOne) return;
    e.preventDefault();
    // An unknown code is said at once, not after a count was typed for it.
    if (!refs.product(refs.resolveProduct(code))) return setError(t('stk.unknownCode', { code: code.trim() }));
    setError('');
    focus(COUNT_ID);
  };

  return (
    <form className="inv-form inv-panel stk-scan" onSubmit={submit} noValidate data-testid="scan-form">
      <h3>{t('stk.scan')}</h3>
      <small className="inv-muted">{t('stk.scanHint')}</small>
      <div className="stk-scan-row">
        <Field label={t('stk.code')} name="productCode" id={CODE_ID} autoFocus autoComplete="off" value={code} onChange={(e) => setCode(e.target.value)} onKeyDown={onCodeKey} error={error || undefined} />
        <Field
          label={t('stk.count')}
          name="inputStocktakingQuantity"
          id={COUNT_ID}
          inputMode="numeric"
          disabled={addOne}
          value={addOne ? '' : count}
          onChange={(e) => setCount(e.target.value)}
        />
        <label className="stk-add-one">
          <input type="checkbox" role="switch" checked={addOne} onChange={(e) => setAddOne(e.target.checked)} />
          {t('stk.addOne')}
        </label>
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('stk.enter')}
        </button>
      </div>
    </form>
  );
}
