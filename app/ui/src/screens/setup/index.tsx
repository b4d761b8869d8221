import { useCallback, useEffect, useState } from 'react';
import { call, createApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { FormProblem } from '../../components/FormProblem';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Loading } from '../../components/LoadState';
import { useT } from '../../i18n';
import { navigate, type ScreenProps } from '../../router';
import { FirstPull } from './FirstPull';
import { HeadOfficeForm } from './HeadOfficeForm';
import { messages } from './i18n';
import { ShopCreatedView } from './ShopCreated';
import { ShopForm } from './ShopForm';
import type { HeadOfficeLinked, SetupState, ShopCreated } from './types';
import './setup.css';

type Step =
  | { name: 'choose' }
  | { name: 'headOffice' }
  | { name: 'shop' }
  | { name: 'pulling'; linked: HeadOfficeLinked | null }
  | { name: 'created'; shop: ShopCreated };

/**
 * The first run (issue 21): while this store has no contract, the login sends here. Two ways
 * in: connect to head office (then follow the first pull of masters and log in with a staff
 * login head office issued), or start a shop on its own (then copy the registers' API client
 * secret, shown once, and log in as the staff member just made). GET /setup answers the PC
 * itself only; another PC (--ui-lan) is told to do it on the store PC.
 */
export function SetupScreen(_props: ScreenProps) {
  const t = useT(messages);
  const [state, setState] = useState<SetupState | null>(null);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [step, setStep] = useState<Step>({ name: 'choose' });

  const load = useCallback(async () => {
    const result = await call(createApi().GET('/setup'));
    if (!result.ok) {
      setProblem(result.problem);
      return null;
    }
    setProblem(null);
    setState(result.data);
    return result.data;
  }, []);

  useEffect(() => {
    void load().then((loaded) => {
      if (!loaded) return;
      // Linked to head office already (the page was reloaded during the first pull): follow it.
      if (loaded.firstPull && !(loaded.firstPull.caughtUp && loaded.firstPull.received.staffLogins > 0)) setStep({ name: 'pulling', linked: null });
      else if (!loaded.needed) navigate('/login', { replace: true });
    });
  }, [load]);

  const body = () => {
    if (problem?.status === 403) return <p className="notice">{t('setup.forbidden')}</p>;
    // A head-office server has no setup API.
    if (problem?.status === 404) return <p className="notice">{t('setup.central')}</p>;
    if (problem) return <FormProblem problem={problem} />;
    if (!state) return <Loading />;
    switch (step.name) {
      case 'choose':
        return <Choose onChoose={(name) => setStep(name === 'shop' ? { name: 'shop' } : { name: 'headOffice' })} />;
      case 'headOffice':
        return <HeadOfficeForm onBack={() => setStep({ name: 'choose' })} onLinked={(linked) => setStep({ name: 'pulling', linked })} />;
      case 'shop':
        return (
          <ShopForm
            plans={state.plans}
            defaultTimeZone={state.defaultTimeZone}
            onBack={() => setStep({ name: 'choose' })}
            onCreated={(shop) => setStep({ name: 'created', shop })}
          />
        );
      case 'pulling':
        return <FirstPull linked={step.linked} />;
      case 'created':
        return <ShopCreatedView shop={step.shop} />;
    }
  };

  return (
    <main id="main" className="container" tabIndex={-1}>
      <article className="setup">
        <header>
          <h1>{t('app.title')}</h1>
          <LanguageSwitch />
        </header>
        <h2>{t('setup.title')}</h2>
        {body()}
      </article>
    </main>
  );
}

/** The two ways in, as two large buttons: Tab between them, Enter to choose. */
function Choose({ onChoose }: { onChoose: (way: 'headOffice' | 'shop') => void }) {
  const t = useT(messages);
  return (
    <section aria-labelledby="setup-way">
      <p id="setup-way">{t('setup.lead')}</p>
      <div className="setup-ways" role="group" aria-label={t('setup.wayLabel')}>
        <button type="button" className="setup-way outline" onClick={() => onChoose('headOffice')} aria-describedby="way-ho" autoFocus>
          <strong>{t('setup.headOffice')}</strong>
          <span id="way-ho">{t('setup.headOfficeText')}</span>
        </button>
        <button type="button" className="setup-way outline" onClick={() => onChoose('shop')} aria-describedby="way-shop">
          <strong>{t('setup.shop')}</strong>
          <span id="way-shop">{t('setup.shopText')}</span>
        </button>
      </div>
    </section>
  );
}
