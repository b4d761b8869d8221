import { Suspense, useEffect, useRef } from 'react';
import { Layout } from './components/Layout';
import { Loading } from './components/LoadState';
import { useT } from './i18n';
import { HOME } from './nav';
import { findRoute, Link, navigate, useLocation } from './router';
import { ROUTES } from './routes';
import { useSession } from './session';

/** Picks the screen for the hash; without a session every screen but the login sends to the login. */
export function App() {
  const t = useT();
  const location = useLocation();
  const { session } = useSession();
  const found = findRoute(ROUTES, location.path);
  const needsLogin = !session && !found?.route.public;
  const target = location.path === '/' ? (session ? HOME : '/login') : needsLogin ? '/login' : session && location.path === '/login' ? HOME : null;

  useEffect(() => {
    if (target) navigate(target, { replace: true });
  }, [target]);

  // A new screen: move focus to <main> so keyboard and screen-reader users start at its content.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [location.path]);

  useEffect(() => {
    document.title = t('app.title');
  }, [t]);

  if (target) return null;
  if (!found) {
    return (
      <Layout>
        <h1>{t('route.notFound')}</h1>
        <p>
          <Link to={HOME}>{t('route.backHome')}</Link>
        </p>
      </Layout>
    );
  }
  const Screen = found.route.component;
  const screen = (
    <Suspense fallback={<Loading />}>
      <Screen params={found.params} query={location.query} />
    </Suspense>
  );
  return found.route.public ? screen : <Layout>{screen}</Layout>;
}
