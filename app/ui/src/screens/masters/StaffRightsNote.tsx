import { useEffect, useState } from 'react';
import { call, useApi, type paths } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { FormProblem } from '../../components/FormProblem';
import { useLang, useT } from '../../i18n';
import { messages } from './i18n';
import { L, type Label, type NoteProps } from './spec';

type RightsBody = paths['/{contract_id}/pos/staffs/{staff_id}/rights']['put']['requestBody']['content']['application/json'];

/** The rights of server/http/rights.ts, with their labels. */
const RIGHTS: ReadonlyArray<readonly [string, Label]> = [
  ['staff_view', L('スタッフの参照', 'View staff')],
  ['staff_edit_all', L('スタッフの編集（すべて）', 'Edit staff (all)')],
  ['staff_edit_excluding_salary', L('スタッフの編集（給与以外）', 'Edit staff (excluding salary)')],
  ['staff_rank_edit', L('スタッフランクの編集', 'Edit staff ranks')],
  ['product_edit', L('商品・部門・メニューなどの編集', 'Edit products, categories, menus and the like')],
  ['customer_edit', L('会員・客層の編集', 'Edit members and customer groups')],
  ['sales_view', L('取引・精算・締めの参照', 'View sales, settlements and closings')],
  ['daily_closing', L('精算・日次締め・締めの解除', 'Settle, close and release a day')],
];

const TEXT = {
  title: L('権限とログイン', 'Rights and login'),
  noLogin: L(
    'このスタッフにはバックオフィスのログインがありません。パスワードは店舗サーバーのコマンドで設定します:',
    'This staff member has no back-office login. Set a password with the store server’s command:',
  ),
  save: L('権限を保存', 'Save rights'),
  saved: L('権限を保存しました。', 'Rights saved.'),
  unsaved: L('新しいスタッフは保存してから権限を設定します。', 'Save the new staff member first, then set the rights.'),
};

/**
 * A staff member's back-office rights (GET/PUT /staffs/{id}/rights): setting them needs
 * staff_edit_all, which the server checks; a refusal is shown next to the rights. The rights are
 * ours, not a platform staff field, so a plan that may only view staff may still set them; the
 * section says so under a read-only form, which would otherwise look like a contradiction.
 */
export function StaffRightsNote({ row, contractId, formEditable }: NoteProps) {
  const { lang } = useLang();
  const t = useT(messages);
  const { api, contract } = useApi();
  const staffId = typeof row?.staffId === 'string' ? row.staffId : null;
  const [state, setState] = useState<{ login: boolean; rights: string[] } | null>(null);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!staffId) return;
    void call(api.GET('/{contract_id}/pos/staffs/{staff_id}/rights', { params: { path: { ...contract, staff_id: staffId } } })).then((r) => {
      if (r.ok) setState({ login: r.data.login, rights: [...r.data.rights] });
      else setProblem(r.problem);
    });
  }, [api, contract, staffId]);

  const toggle = (name: string) => {
    setSaved(false);
    setState((s) => s && { ...s, rights: s.rights.includes(name) ? s.rights.filter((r) => r !== name) : [...s.rights, name] });
  };
  const save = async () => {
    if (!staffId || !state) return;
    setSaved(false);
    const body = { rights: state.rights as RightsBody['rights'] };
    const r = await call(api.PUT('/{contract_id}/pos/staffs/{staff_id}/rights', { params: { path: { ...contract, staff_id: staffId } }, body }));
    setProblem(r.ok ? null : r.problem);
    if (r.ok) {
      setState({ login: r.data.login, rights: [...r.data.rights] });
      setSaved(true);
    }
  };
  const error = fieldError(problem, 'rights') ?? fieldError(problem, 'right');

  return (
    <section aria-labelledby="staff-rights-title" className="staff-rights" data-testid="staff-rights">
      <h2 id="staff-rights-title">{TEXT.title[lang]}</h2>
      {!staffId && <p>{TEXT.unsaved[lang]}</p>}
      {staffId && !formEditable && (
        <p className="notice" role="note" data-testid="staff-rights-own">
          {t('masters.rightsOwn')}
        </p>
      )}
      {staffId && state && !state.login && (
        <>
          <p>{TEXT.noLogin[lang]}</p>
          <pre>
            <code>{`npx pos-backoffice staff-password set --contract ${contractId} --staff ${staffId}`}</code>
          </pre>
        </>
      )}
      {staffId && state?.login && (
        <fieldset aria-invalid={error ? true : undefined} aria-describedby={error ? 'staff-rights-error' : undefined}>
          {RIGHTS.map(([name, label]) => (
            <label key={name}>
              <input type="checkbox" name="rights" value={name} checked={state.rights.includes(name)} onChange={() => toggle(name)} />
              {label[lang]} <code>{name}</code>
            </label>
          ))}
          {error && (
            <small id="staff-rights-error" className="field-error">
              {error}
            </small>
          )}
          <button type="button" onClick={() => void save()}>
            {TEXT.save[lang]}
          </button>
          {saved && <p role="status">{TEXT.saved[lang]}</p>}
        </fieldset>
      )}
      {problem && !error && <FormProblem problem={problem} />}
    </section>
  );
}
