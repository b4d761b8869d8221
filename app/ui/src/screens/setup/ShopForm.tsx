import { useMemo, useState, type FormEvent } from 'react';
import { call, createApi } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { FormProblem } from '../../components/FormProblem';
import { useT } from '../../i18n';
import { focusFirstError } from './focus';
import { messages } from './i18n';
import type { Plan, ShopCreated } from './types';

const FIELDS = ['contractId', 'contractName', 'plan', 'timeZone', 'storeName', 'staffName', 'staffCode', 'password', 'terminalName'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** The browser's IANA zones for the suggestion list; the server decides what is valid. */
function knownZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/**
 * (b) A shop on its own: the contract, its first store, the first staff member (who logs in with
 * the staff code and password and holds every right), and a register. The server makes it all in
 * one transaction, with an API client for the registers. Its rules and messages are the API's,
 * shown on their fields; nothing is checked twice in the browser.
 */
export function ShopForm({ plans, defaultTimeZone, onBack, onCreated }: { plans: readonly Plan[]; defaultTimeZone: string; onBack: () => void; onCreated: (shop: ShopCreated) => void }) {
  const t = useT(messages);
  const [values, setValues] = useState<Values>({
    contractId: '',
    contractName: '',
    plan: '',
    timeZone: defaultTimeZone,
    storeName: '',
    staffName: '',
    staffCode: '',
    password: '',
    terminalName: '',
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const zones = useMemo(knownZones, []);
  const set = (key: keyof Values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));
  const field = (key: keyof Values) => ({ name: key, value: values[key], onChange: set(key), error: fieldError(problem, key), required: true });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k === 'password' ? v : v.trim()])) as Values;
    // An empty choice is not sent, so the API says the plan is required rather than unknown.
    const { plan, ...rest } = trimmed;
    const body = { ...rest, ...(plan ? { plan: plan as Plan } : {}) } as Values & { plan: Plan };
    const result = await call(createApi().POST('/setup/shop', { body }));
    setBusy(false);
    if (!result.ok) {
      setProblem(result.problem);
      focusFirstError(FIELDS, result.problem);
      return;
    }
    onCreated(result.data);
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="shop-title">
      <h3 id="shop-title">{t('shop.title')}</h3>
      <FormProblem problem={problem} shown={FIELDS} />
      <div className="setup-grid">
        <fieldset>
          <legend>{t('shop.contract')}</legend>
          <Field label={t('shop.contractId')} hint={t('shop.contractIdHint')} autoComplete="off" autoFocus {...field('contractId')} />
          <Field label={t('shop.contractName')} autoComplete="organization" {...field('contractName')} />
          <div className="setup-row">
            <Field label={t('shop.plan')} {...field('plan')}>
              <select value={values.plan} onChange={set('plan')}>
                <option value="">{t('shop.planChoose')}</option>
                {plans.map((p) => (
                  <option key={p} value={p}>
                    {t(`plan.${p}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('shop.timeZone')} list="setup-zones" autoComplete="off" {...field('timeZone')} />
            <datalist id="setup-zones">
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('shop.staff')}</legend>
          <Field label={t('shop.staffName')} autoComplete="name" {...field('staffName')} />
          <div className="setup-row">
            <Field label={t('shop.staffCode')} autoComplete="username" {...field('staffCode')} />
            <Field label={t('shop.password')} type="password" autoComplete="new-password" hint={t('shop.passwordHint')} {...field('password')} />
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('shop.store')}</legend>
          <Field label={t('shop.storeName')} autoComplete="off" {...field('storeName')} />
        </fieldset>
        <fieldset>
          <legend>{t('shop.terminal')}</legend>
          <Field label={t('shop.terminalName')} autoComplete="off" {...field('terminalName')} />
        </fieldset>
      </div>
      <div className="setup-actions">
        <button type="button" className="secondary outline" onClick={onBack}>
          {t('setup.back')}
        </button>
        <button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t('setup.submitting') : t('shop.submit')}
        </button>
      </div>
    </form>
  );
}
