import type { ReactNode } from 'react';
import { useT } from '../i18n';
import { NAV } from '../nav';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { LanguageSwitch } from './LanguageSwitch';

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
