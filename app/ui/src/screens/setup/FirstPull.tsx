import { useCallback, useEffect, useRef, useState } from 'react';
import { call, createApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { FormProblem } from '../../components/FormProblem';
import { useT } from '../../i18n';
import { navigate } from '../../router';
import { usePolling } from '../../shared/polling';
import { messages } from './i18n';
import type { FirstPullState, HeadOfficeLinked } from './types';

/** The store's own server answers; the scheduler pulls every 2 s, so once a second follows it closely. */
export const FIRST_PULL_REFRESH_MS = 1000;

/**
 * After the link: the serving store's scheduler pulls head office's masters within seconds. The
 * staff logins come with them, so the staff member waits here until the first pull has caught
 * up and at least one staff login has arrived, then logs in with it (a store linked to head
 * office makes no staff of its own at setup: its staff are head office's).
 */
export function FirstPull({ linked }: { linked: HeadOfficeLinked | null }) {
  const t = useT(messages);
  const [pull, setPull] = useState<FirstPullState | null>(null);
  const [problem, setProblem] = useState<ProblemView | null>(null);

  const ready = !!pull && pull.caughtUp && pull.received.staffLogins > 0;
  // Asked no more once a staff member can log in.
  const done = useRef(false);
  done.current = ready;
  const load = useCallback(async () => {
    if (done.current) return;
    const result = await call(createApi().GET('/setup'));
    if (!result.ok) return setProblem(result.problem);
    setProblem(null);
    setPull(result.data.firstPull);
  }, []);
  usePolling(load, FIRST_PULL_REFRESH_MS);

  // The login button takes the focus once it appears, so Enter is the next step.
  const toLogin = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (ready) toLogin.current?.focus();
  }, [ready]);

  const contractName = linked?.contract.name ?? pull?.contractName ?? '';
  const contractId = linked?.contract.contractId ?? pull?.contractId ?? '';
  const node = linked?.node ?? pull?.node ?? '';
  const status = !pull ? null : pull.caughtUp ? t('pull.caughtUp') : pull.online || pull.lastPullAt === null ? t('pull.pulling') : t('pull.waiting');

  return (
    <section aria-labelledby="pull-title">
      <h3 id="pull-title">{t('pull.title')}</h3>
      {contractId ? <p>{contractName === contractId ? t('pull.linkedId', { contractId, node }) : t('pull.linked', { contract: contractName, contractId, node })}</p> : null}
      {linked?.warning ? (
        <p className="notice" role="alert">
          {t('pull.clockWarning')}
        </p>
      ) : null}
      <FormProblem problem={problem} />
      <div role="status" aria-live="polite">
        <p>{status ?? t('common.loading')}</p>
        {pull && !pull.caughtUp ? <progress aria-label={t('pull.pulling')} /> : null}
        {pull?.lastError && !pull.caughtUp ? <p className="field-error">{t('pull.lastError', { error: pull.lastError })}</p> : null}
      </div>
      {pull ? (
        <table className="setup-received">
          <caption>{t('pull.received')}</caption>
          <tbody>
            {(['stores', 'staffs', 'staffLogins', 'products'] as const).map((key) => (
              <tr key={key}>
                <th scope="row">{t(`pull.${key}`)}</th>
                <td className="num">{pull.received[key]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {ready ? (
        <>
          <p className="notice">{t('pull.loginHint')}</p>
          <button type="button" ref={toLogin} onClick={() => navigate('/login', { replace: true })}>
            {t('setup.toLogin')}
          </button>
        </>
      ) : pull?.caughtUp ? (
        <p className="notice">{t('pull.noLogin')}</p>
      ) : null}
    </section>
  );
}
