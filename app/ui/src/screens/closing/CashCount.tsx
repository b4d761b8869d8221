import { useId, useMemo, useState, type FormEvent } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import type { Translate } from '../../i18n';
import { useFormat } from '../../shared/format';
import { yenUnits, fromUnits } from '../../shared/money';
import type { Adjustment } from '../../shared/sales';
import type { Store } from '../../shared/stores';
import { cashFigures, cashInfoBody, countOf, DENOMINATIONS, emptyCounts, type CashFigures, type Counts, type Denomination } from './cash';
import type { messages } from './i18n';

type Key = keyof (typeof messages)['ja'];
export type CashInfo = ReturnType<typeof cashInfoBody>;

/** The fields of the form, for FormProblem's "shown" (the rest of a problem goes above the form). */
export const CASH_FIELDS = ['cashInfo', 'cashInfo.preparationCash', 'cashInfo.saving', ...DENOMINATIONS.map(([name]) => `cashInfo.${name}`)];

/**
 * The cash count (notes and coins → amounts), preparation cash and saving, and beside it the
 * over/short computed live as the counts are typed. With settlement counts (the store counts at
 * each settlement) the counts are shown as counted there and the closing sends no cashInfo.
 */
export function CashCount({
  t,
  store,
  settlements,
  cashEffects,
  date,
  problem,
  busy,
  onSubmit,
}: {
  t: Translate<Key>;
  store: Store;
  settlements: Adjustment[];
  cashEffects: string;
  date: string;
  problem: ProblemView | null;
  busy: boolean;
  onSubmit: (cashInfo: CashInfo | null) => void;
}) {
  const f = useFormat();
  const [counts, setCounts] = useState<Counts>(emptyCounts);
  const [preparationCash, setPreparationCash] = useState('');
  const [saving, setSaving] = useState('');
  const figures = useMemo(
    () => cashFigures({ store, settlements, cashEffects, counts, preparationCash, saving }),
    [store, settlements, cashEffects, counts, preparationCash, saving],
  );
  const readOnly = figures.source === 'settlement';
  const cashError = fieldError(problem, 'cashInfo');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(readOnly ? null : cashInfoBody(counts, figures.autoInput, preparationCash, saving));
  };

  return (
    <form className="closing-cash" onSubmit={submit} noValidate aria-label={t('cash.title')}>
      <div className="closing-cash-grid">
        <fieldset>
          <legend>
            <h2>{t('cash.title')}</h2>
          </legend>
          {readOnly ? <p className="notice">{t('cash.fromSettlements')}</p> : null}
          {cashError ? (
            <p className="field-error" role="alert" data-field="cashInfo">
              {cashError}
            </p>
          ) : null}
          <table className="cash-table">
            <thead>
              <tr>
                <th scope="col">{t('cash.denomination')}</th>
                <th scope="col">{t('cash.count')}</th>
                <th scope="col" className="num">{t('cash.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {DENOMINATIONS.map(([name, face]) => (
                <CountRow
                  key={name}
                  t={t}
                  name={name}
                  face={face}
                  value={figures.counts[name]}
                  readOnly={readOnly}
                  error={fieldError(problem, `cashInfo.${name}`)}
                  onChange={(value) => setCounts((c) => ({ ...c, [name]: value }))}
                />
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>{t('cash.realTotal')}</th>
                <td className="num" data-testid="cash-total" data-value={figures.real}>
                  {f.yen(figures.real)}
                </td>
              </tr>
            </tfoot>
          </table>
          {figures.autoInput ? (
            <p className="muted">{t('cash.autoInput', { amount: f.yen(store.bankDepositAutoInputAmount) })}</p>
          ) : readOnly ? null : (
            <div className="grid">
              <Field
                label={t('cash.preparationCash')}
                name="cashInfo.preparationCash"
                inputMode="decimal"
                autoComplete="off"
                value={preparationCash}
                onChange={(e) => setPreparationCash(e.target.value)}
                error={fieldError(problem, 'cashInfo.preparationCash')}
                hint={t('cash.preparationHint')}
              />
              <Field
                label={t('cash.saving')}
                name="cashInfo.saving"
                inputMode="decimal"
                autoComplete="off"
                value={saving}
                onChange={(e) => setSaving(e.target.value)}
                error={fieldError(problem, 'cashInfo.saving')}
                hint={t('cash.savingHint')}
              />
            </div>
          )}
        </fieldset>
        <OverShort t={t} figures={figures} />
      </div>
      <button type="submit" disabled={busy} aria-busy={busy} data-testid="close-day">
        {t('closing.submit', { date: f.date(date) })}
      </button>
    </form>
  );
}

function CountRow({
  t,
  name,
  face,
  value,
  readOnly,
  error,
  onChange,
}: {
  t: Translate<Key>;
  name: Denomination;
  face: number;
  value: string;
  readOnly: boolean;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const f = useFormat();
  const id = useId();
  const count = countOf(value);
  // A typo is flagged at once (the server would refuse it too); the API's message wins when there is one.
  const message = error ?? (count === null ? t('cash.invalidCount') : undefined);
  return (
    <tr data-denomination={name}>
      <th scope="row">
        <label htmlFor={id}>{t('cash.yen', { yen: face.toLocaleString('ja-JP') })}</label>
      </th>
      <td>
        <input
          id={id}
          name={`cashInfo.${name}`}
          inputMode="numeric"
          autoComplete="off"
          placeholder="0"
          value={value}
          readOnly={readOnly}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-error` : undefined}
        />
        {message ? (
          <small id={`${id}-error`} className="field-error">
            {message}
          </small>
        ) : null}
      </td>
      <td className="num" data-testid={`amount-${name}`}>
        {count === null ? '—' : f.yen(fromUnits(yenUnits(face, count)))}
      </td>
    </tr>
  );
}

/** The live over/short with every step of its computation on screen. */
function OverShort({ t, figures }: { t: Translate<Key>; figures: CashFigures }) {
  const f = useFormat();
  const over = Number(figures.overShort);
  const verdict = over > 0 ? t('calc.over', { amount: f.yen(figures.overShort) }) : over < 0 ? t('calc.short', { amount: f.yen(figures.overShort.replace(/^-/, '')) }) : t('calc.even');
  const row = (label: string, value: string, testId: string, strong = false) => (
    <tr data-testid={testId} data-value={value}>
      <th scope="row">{strong ? <strong>{label}</strong> : label}</th>
      <td className="num">{strong ? <strong>{f.yen(value)}</strong> : f.yen(value)}</td>
    </tr>
  );
  return (
    <aside className="closing-calc" aria-labelledby="calc-title">
      <h2 id="calc-title">{t('calc.title')}</h2>
      <table>
        <tbody>
          {row(t('calc.preparationCash'), figures.preparationCash, 'calc-preparation')}
          {row(t('calc.cashEffects'), figures.cashEffects, 'calc-cash-effects')}
          {row(t('calc.computed'), figures.computed, 'calc-computed', true)}
          {row(t('calc.real'), figures.real, 'calc-real')}
          {row(t('calc.deposited'), figures.deposited, 'calc-deposited')}
        </tbody>
        <tfoot>
          <tr data-testid="calc-over-short" data-value={figures.overShort} className={over < 0 ? 'short' : over > 0 ? 'over' : 'even'}>
            <th scope="row">{t('calc.overShort')}</th>
            <td className="num" aria-live="polite">
              <strong>{f.yen(figures.overShort)}</strong>
              <br />
              <small>{verdict}</small>
            </td>
          </tr>
          <tr data-testid="calc-carry-over" data-value={figures.carryOver}>
            <th scope="row">{t('calc.carryOver')}</th>
            <td className="num">{f.yen(figures.carryOver)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="muted formula">{t('calc.formula')}</p>
    </aside>
  );
}
