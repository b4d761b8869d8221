import type { ReactNode } from 'react';
import { NAV } from '../routes';
import { LANGS, useLang, useT, type Lang } from '../i18n';
import { Link, navigate } from '../router';
import { useSession } from '../session';

/** The language switch: a labelled <select>, usable by keyboard, shown on every page (login included). */
export function LanguageSwitch() {
  const t = useT();
  const { lang, setLang } = useLang();
  return (
    <label className="lang-switch">
      <span>{t('lang.label')}</span>
      <select value={lang} onChange={(e) => setLang(e.target.value as Lang)} data-testid="lang">
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`lang.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The frame of every logged-in screen: skip link, nav bar (screens, staff, language, logout), main. */
export function Layout({ children }: { children: ReactNode }) {
  const t = useT();
  const { session, logout } = useSession();
  return (
    <>
      <a className="skip-link" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        {t('app.skipToContent')}
      </a>
      <header className="app-header">
        <nav aria-label={t('nav.label')} className="container-fluid">
          <ul>
            <li>
              <strong>{t('app.title')}</strong>
            </li>
          </ul>
          <ul className="nav-screens">
            {NAV.map((item) => (
              <li key={item.to}>
                <Link to={item.to}>{t(item.label)}</Link>
              </li>
            ))}
          </ul>
          <ul className="nav-user">
            {session ? (
              <li className="nav-staff" data-testid="current-staff" title={t('nav.contract', { contract: session.contractName })}>
                {t('nav.staff', { staff: session.staffCode })}
              </li>
            ) : null}
            <li>
              <LanguageSwitch />
            </li>
            <li>
              <button
                type="button"
                className="secondary outline"
                onClick={() => {
                  logout('user');
                  navigate('/login');
                }}
              >
                {t('nav.logout')}
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1} className="container-fluid">
        {children}
      </main>
    </>
  );
}
