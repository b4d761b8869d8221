import { useState } from 'react';
import { call, useApi, type paths } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { DataTable } from '../../components/DataTable';
import { FormProblem } from '../../components/FormProblem';
import type { Translate } from '../../i18n';
import { useFormat } from '../../shared/format';
import type { messages } from './i18n';

export type DeadLetter = paths['/{contract_id}/pos/sync/dead_letters']['get']['responses'][200]['content']['application/json'][number];
type Key = keyof (typeof messages)['ja'];

/**
 * The open dead letters this server holds, each with retry (apply it again) and discard. A
 * store lists the pulled records it could not apply; the records head office refused from this
 * store are only counted in the status (`elsewhere`), as they live at head office.
 */
export function DeadLetters({
  t,
  letters,
  elsewhere,
  onChanged,
}: {
  t: Translate<Key>;
  letters: DeadLetter[];
  elsewhere: number;
  onChanged: () => Promise<void>;
}) {
  const f = useFormat();
  const { api, contract } = useApi();
  const [busy, setBusy] = useState<number | null>(null);
  const [problems, setProblems] = useState<Record<number, ProblemView>>({});
  const [done, setDone] = useState<string | null>(null);

  const act = async (letter: DeadLetter, action: 'retry' | 'discard') => {
    const id = letter.deadLetterId;
    if (action === 'discard' && !window.confirm(t('deadLetters.confirmDiscard', { id }))) return;
    setBusy(id);
    setDone(null);
    const path = { params: { path: { ...contract, dead_letter_id: id } } };
    const result =
      action === 'retry'
        ? await call(api.POST('/{contract_id}/pos/sync/dead_letters/{dead_letter_id}/retry', path))
        : await call(api.DELETE('/{contract_id}/pos/sync/dead_letters/{dead_letter_id}', path));
    setBusy(null);
    setProblems(({ [id]: _, ...rest }) => (result.ok ? rest : { ...rest, [id]: result.problem }));
    if (result.ok) {
      setDone(t(action === 'retry' ? 'deadLetters.retried' : 'deadLetters.discarded', { id }));
      await onChanged();
    }
  };

  return (
    <article data-testid="dead-letters">
      <h2>{t('deadLetters.title')}</h2>
      {done ? (
        <p role="status" className="notice">
          {done}
        </p>
      ) : null}
      {elsewhere > 0 ? <p className="notice">{t('deadLetters.elsewhere', { count: elsewhere })}</p> : null}
      {letters.length === 0 ? (
        <p>{t('deadLetters.none')}</p>
      ) : (
        <DataTable
          className="striped"
          rows={letters}
          rowKey={(d) => d.deadLetterId}
          rowProps={(d) => ({ 'data-dead-letter-id': d.deadLetterId })}
          columns={[
            { key: 'id', header: t('col.id'), cell: (d) => d.deadLetterId },
            { key: 'direction', header: t('col.direction'), cell: (d) => t(`direction.${d.direction}`) },
            {
              key: 'record',
              header: t('col.record'),
              cell: (d) => (
                <code>
                  {d.entity} {d.id} ({d.op})
                </code>
              ),
            },
            {
              key: 'reason',
              header: t('col.reason'),
              cellClass: 'reason',
              cell: (d) => (
                <>
                  {d.reason}
                  {problems[d.deadLetterId] ? <FormProblem problem={problems[d.deadLetterId]} /> : null}
                </>
              ),
            },
            { key: 'createdAt', header: t('col.createdAt'), cell: (d) => f.dateTime(d.createdAt) },
            {
              key: 'actions',
              header: t('col.actions'),
              cellClass: 'actions',
              cell: (d) => (
                <>
                  <button type="button" onClick={() => void act(d, 'retry')} disabled={busy !== null} aria-busy={busy === d.deadLetterId}>
                    {t('deadLetters.retry')}
                  </button>
                  <button type="button" className="secondary outline" onClick={() => void act(d, 'discard')} disabled={busy !== null}>
                    {t('deadLetters.discard')}
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
    </article>
  );
}
