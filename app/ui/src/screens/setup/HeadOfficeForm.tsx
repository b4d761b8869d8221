import { useState, type FormEvent } from 'react';
import { call, createApi } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { FormProblem } from '../../components/FormProblem';
import { useT } from '../../i18n';
import { focusFirstError } from './focus';
import { messages } from './i18n';
import type { HeadOfficeLinked } from './types';

const FIELDS = ['centralUrl', 'contractId', 'node', 'secret', 'insecure'] as const;

/**
 * (a) Connect to head office: what `pos-backoffice link` takes. Head office checks it before
 * anything is saved; what it refuses comes back on the field at fault (a wrong secret on the
 * secret, an unknown node on the node, an unreachable address on the URL).
 */
export function HeadOfficeForm({ onBack, onLinked }: { onBack: () => void; onLinked: (linked: HeadOfficeLinked) => void }) {
  const t = useT(messages);
  const [values, setValues] = useState({ centralUrl: '', contractId: '', node: '', secret: '' });
  const [insecure, setInsecure] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const set = (key: keyof typeof values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const body = {
      centralUrl: values.centralUrl.trim(),
      contractId: values.contractId.trim(),
      node: values.node.trim(),
      secret: values.secret.trim(),
      ...(insecure ? { insecure: true } : {}),
    };
    const result = await call(createApi().POST('/setup/head_office', { body }));
    setBusy(false);
    if (!result.ok) {
      // Said in the user's language above the form; the API's own words stay on the field at fault.
      setProblem(result.problem.status === 400 ? { ...result.problem, messages: [t('ho.refused'), ...result.problem.messages] } : result.problem);
      focusFirstError(FIELDS, result.problem);
      return;
    }
    onLinked(result.data);
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="ho-title">
      <h3 id="ho-title">{t('ho.title')}</h3>
      <FormProblem problem={problem} shown={FIELDS} />
      <Field
        label={t('ho.centralUrl')}
        name="centralUrl"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://"
        hint={t('ho.centralUrlHint')}
        value={values.centralUrl}
        onChange={set('centralUrl')}
        error={fieldError(problem, 'centralUrl')}
        required
        autoFocus
      />
      <label className="setup-check">
        <input type="checkbox" name="insecure" checked={insecure} onChange={(e) => setInsecure(e.target.checked)} />
        {t('ho.insecure')}
      </label>
      <div className="setup-row">
        <Field label={t('ho.contractId')} name="contractId" value={values.contractId} onChange={set('contractId')} error={fieldError(problem, 'contractId')} autoComplete="off" required />
        <Field
          label={t('ho.node')}
          name="node"
          inputMode="numeric"
          hint={t('ho.nodeHint')}
          value={values.node}
          onChange={set('node')}
          error={fieldError(problem, 'node')}
          autoComplete="off"
          required
        />
      </div>
      <Field label={t('ho.secret')} name="secret" type="password" value={values.secret} onChange={set('secret')} error={fieldError(problem, 'secret')} autoComplete="off" required />
      <div className="setup-actions">
        <button type="button" className="secondary outline" onClick={onBack}>
          {t('setup.back')}
        </button>
        <button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t('setup.submitting') : t('ho.submit')}
        </button>
      </div>
    </form>
  );
}
