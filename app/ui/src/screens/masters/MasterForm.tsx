import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useApi } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { FormProblem } from '../../components/FormProblem';
import { useLang, useT } from '../../i18n';
import { Link, navigate } from '../../router';
import { useSession } from '../../session';
import { useFormat } from '../../shared/format';
import { createRow, loadRow, updateRow } from './api';
import { FormField } from './FormField';
import { messages } from './i18n';
import { MASTER_KINDS } from './kinds';
import { useRefs } from './refs';
import { planAllows, type MasterSpec } from './spec';
import { bodyOf, formValuesOf, type FormValues } from './values';
import { explain, listParams, propFor, refsOf, rowName, screenUrl, setFlash } from './view';

type Row = Record<string, unknown>;

/**
 * Create, edit or (when the plan may not change the kind) view one row. Only the fields the
 * user changed are sent on edit; every API error is shown under the field it names, the rest
 * above the form (FormProblem), and the first invalid field gets the focus.
 */
export function MasterForm({ spec, id, query }: { spec: MasterSpec; id: string | null; query: URLSearchParams }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const { session } = useSession();
  const plan = session?.plan ?? '';
  const prop = useMemo(() => propFor(spec), [spec]);
  const scope = useMemo(() => (spec.scope && query.get(spec.scope.param) ? { [spec.scope.param]: query.get(spec.scope.param)! } : {}), [spec.scope, query]);
  const refs = useRefs(refsOf(spec, spec.form, prop, false), scope);
  const creating = id === null;
  const editable = creating ? !!spec.create && planAllows(spec, 'create', plan) : !!spec.update && planAllows(spec, 'update', plan);
  const [row, setRow] = useState<Row | null>(null);
  const [initial, setInitial] = useState<FormValues | null>(creating ? formValuesOf(spec, spec.form, null, prop) : null);
  const [values, setValues] = useState<FormValues>(initial ?? {});
  const [rawProblem, setProblem] = useState<ProblemView | null>(null);
  // Said in the current language at render time (a language switch neither reloads nor loses edits).
  const problem = useMemo(() => rawProblem && explain(rawProblem, t), [rawProblem, t]);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const back = screenUrl(spec.kind, listParams(query));

  useEffect(() => {
    if (creating) return;
    let live = true;
    void loadRow(api, spec, { ...contract, ...scope }, id).then((r) => {
      if (!live) return;
      if (!r.ok) return setProblem(r.problem);
      const start = formValuesOf(spec, spec.form, r.data, prop);
      setRow(r.data);
      setInitial(start);
      setValues(start);
    });
    return () => {
      live = false;
    };
  }, [api, contract, spec, id, creating, scope, prop]);

  // After an answer with field errors the first invalid field takes the focus (its message is read with it).
  useEffect(() => {
    if (rawProblem) document.querySelector<HTMLElement>('.master-form [aria-invalid="true"]')?.focus();
  }, [rawProblem]);

  // The fields the form shows errors at: its own, and the rows of a list field (`reserveItems[0].value`).
  const shown = [...spec.form, ...Object.keys(problem?.fields ?? {}).filter((f) => spec.form.some((n) => prop(n).input === 'pairs' && f.startsWith(`${n}[`)))];
  const sendable = spec.form.filter((f) => creating || !spec.createOnly?.includes(f));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editable || !initial) return;
    const body = bodyOf(sendable, values, creating ? null : initial, prop);
    if (!creating && Object.keys(body).length === 0) {
      setProblem(null);
      setStatus(t('masters.noChange'));
      return;
    }
    setBusy(true);
    setStatus(null);
    const path = { ...contract, ...scope };
    const r = creating ? await createRow(api, spec, path, body) : await updateRow(api, spec, path, id, body);
    setBusy(false);
    if (!r.ok) return setProblem(r.problem);
    const saved = creating ? (r.data as Row) : { ...row, ...body };
    setFlash(t(creating ? 'masters.created' : 'masters.saved', { name: rowName(spec, saved) || id || '' }));
    navigate(back);
  };

  const kindLabel = t(MASTER_KINDS.find((k) => k.kind === spec.kind)?.label ?? 'masters.title');
  const title = creating
    ? t('masters.newTitle', { kind: kindLabel })
    : t(editable ? 'masters.editTitle' : 'masters.viewTitle', { kind: kindLabel, name: row ? rowName(spec, row) : (id ?? '') });
  const updated = row?.updDateTime;

  return (
    <article className="master-form-card">
      <header>
        <h2>{title}</h2>
        {row ? (
          <small>
            {prop(spec.key).label[lang]}: {String(row[spec.key])}
            {typeof updated === 'string' ? ` ・ ${t('masters.updated')}: ${format.dateTime(updated)}` : null}
          </small>
        ) : null}
      </header>
      {!editable ? (
        <p className="notice" role="note" data-testid="plan-notice">
          {t(creating ? 'masters.planNoCreate' : 'masters.planNoUpdate', { plan })}
        </p>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate className="master-form" aria-busy={!initial && !problem}>
        <FormProblem problem={problem} shown={shown} />
        {status ? (
          <p role="status" className="notice">
            {status}
          </p>
        ) : null}
        {initial ? (
          <div className="master-fields">
            {spec.form.map((name) => (
              <FormField
                key={name}
                name={name}
                prop={prop(name)}
                value={values[name] ?? ''}
                refs={refs}
                creating={creating}
                disabled={!editable || (!creating && !!spec.createOnly?.includes(name))}
                error={fieldError(problem, name)}
                errors={problem?.fields ?? {}}
                onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
              />
            ))}
          </div>
        ) : null}
        <div className="master-form-buttons">
          {editable ? (
            <button type="submit" disabled={busy || !initial} aria-busy={busy}>
              {busy ? t('masters.saving') : t('common.save')}
            </button>
          ) : null}
          <Link to={back} role="button" className="secondary outline">
            {editable ? t('common.cancel') : t('masters.back')}
          </Link>
        </div>
      </form>
      {spec.note ? <spec.note row={row} contractId={contract.contract_id} formEditable={editable} /> : null}
    </article>
  );
}
