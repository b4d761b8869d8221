import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { useT } from '../../../i18n';
import type { Divisions, LossDivision } from './data';
import { messages } from './i18n';

/**
 * The contract's loss divisions (ロス区分), edited in place under the loss list: add one (code
 * and name), rename one, delete one no loss uses (the API names the loss that still does).
 */
export function LossDivisions({ divisions, onChanged }: { divisions: Divisions; onChanged(): void }) {
  const t = useT(messages);
  const { api, contract } = useApi();
  const [fresh, setFresh] = useState({ divisionCode: '', divisionName: '' });
  const [names, setNames] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async (request: () => Promise<{ ok: boolean; problem?: ProblemView }>, done: string) => {
    setBusy(true);
    setProblem(null);
    setNotice('');
    const r = await request();
    setBusy(false);
    if (!r.ok) return setProblem(r.problem ?? null);
    setNotice(done);
    onChanged();
  };
  const add = (e: FormEvent) => {
    e.preventDefault();
    const body = { divisionCode: fresh.divisionCode.trim(), divisionName: fresh.divisionName };
    void run(async () => {
      const r = await call(api.POST('/{contract_id}/pos/loss_divisions', { params: { path: contract }, body }));
      if (r.ok) setFresh({ divisionCode: '', divisionName: '' });
      return r;
    }, t('ld.added', { code: body.divisionCode }));
  };
  const rename = (d: LossDivision) =>
    void run(
      () => call(api.PATCH('/{contract_id}/pos/loss_divisions/{division_code}', { params: { path: { ...contract, division_code: d.divisionCode } }, body: { divisionName: names[d.divisionCode] ?? d.divisionName } })),
      t('ld.renamed', { code: d.divisionCode }),
    );
  const remove = (d: LossDivision) =>
    void run(() => call(api.DELETE('/{contract_id}/pos/loss_divisions/{division_code}', { params: { path: { ...contract, division_code: d.divisionCode } } })), t('ld.deletedOne', { code: d.divisionCode }));

  return (
    <section className="loss-divisions" data-testid="loss-divisions" aria-labelledby="loss-divisions-title">
      <h2 id="loss-divisions-title">{t('ld.title')}</h2>
      <p className="inv-muted">{t('ld.intro')}</p>
      <p role="status" className="inv-notice" data-testid="division-notice">
        {notice}
      </p>
      <FormProblem problem={problem} shown={['divisionCode', 'divisionName']} />
      <DataTable
        className="inv-table"
        data-testid="division-table"
        rows={divisions.list}
        rowKey={(d) => d.divisionCode}
        rowProps={(d) => ({ 'data-division': d.divisionCode })}
        emptyRow={t('ld.none')}
        columns={[
          { key: 'code', header: t('ld.code'), rowHeader: true, cell: (d) => d.divisionCode },
          {
            key: 'name',
            header: t('ld.name'),
            cell: (d) => (
              <input
                aria-label={t('ld.renameOne', { code: d.divisionCode })}
                value={names[d.divisionCode] ?? d.divisionName}
                onChange={(e) => setNames((n) => ({ ...n, [d.divisionCode]: e.target.value }))}
              />
            ),
          },
          {
            key: 'actions',
            header: '',
            cell: (d) => (
              <div className="inv-buttons">
                <button type="button" className="secondary" disabled={busy || (names[d.divisionCode] ?? d.divisionName) === d.divisionName} onClick={() => rename(d)}>
                  {t('ld.rename')}
                </button>
                <button type="button" className="secondary outline" disabled={busy} onClick={() => remove(d)} aria-label={t('ld.deleteOne', { code: d.divisionCode })}>
                  {t('ld.delete')}
                </button>
              </div>
            ),
          },
        ]}
      />
      <form className="inv-form" onSubmit={add} noValidate data-testid="division-add">
        <div className="inv-grid">
          <Field
            label={t('ld.code')}
            name="divisionCode"
            inputMode="numeric"
            value={fresh.divisionCode}
            onChange={(e) => setFresh((f) => ({ ...f, divisionCode: e.target.value }))}
            error={fieldError(problem, 'divisionCode')}
          />
          <Field label={t('ld.name')} name="divisionName" value={fresh.divisionName} onChange={(e) => setFresh((f) => ({ ...f, divisionName: e.target.value }))} error={fieldError(problem, 'divisionName')} />
        </div>
        <div className="inv-buttons">
          <button type="submit" disabled={busy} aria-busy={busy}>
            {t('ld.add')}
          </button>
        </div>
      </form>
    </section>
  );
}
