import type { ReactNode } from 'react';
import { Pager } from '../../components/Pager';
import { useT } from '../../i18n';
import { Link, navigate } from '../../router';
import { useSession } from '../../session';
import { useInventoryAllowed, withQuery } from './data';
import { messages } from './i18n';
import './inventory.css';

export const SECTIONS = [
  { to: '/inventory/shipping', label: 'inv.shipping', hint: 'inv.hub.shipping' },
  { to: '/inventory/shipments', label: 'inv.shipments', hint: 'inv.hub.shipments' },
  { to: '/inventory/purchase-orders', label: 'inv.purchaseOrders', hint: 'inv.hub.purchaseOrders' },
  { to: '/inventory/stock', label: 'inv.stock', hint: 'inv.hub.stock' },
  { to: '/inventory/stocktaking', label: 'inv.stocktaking', hint: 'inv.hub.stocktaking' }, // Stocktaking (issue 26)
  { to: '/inventory/losses', label: 'inv.losses', hint: 'inv.hub.losses' }, // Losses (issue 26)
] as const;

/**
 * Every inventory screen: its heading, the inventory sub-nav, and on a contract of another plan
 * a notice instead of the screen (the API answers 403 there, so nothing is called).
 */
export function InventoryFrame({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const t = useT(messages);
  const allowed = useInventoryAllowed();
  const plan = useSession().session?.plan ?? '';
  return (
    <section className="inventory" data-testid={testId}>
      <h1>{title}</h1>
      <nav aria-label={t('inv.sections')} className="sub-nav">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.to}>
              <Link to={s.to}>{t(s.label)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      {allowed ? (
        children
      ) : (
        <p className="notice" role="note" data-testid="plan-notice">
          {t('inv.planOnly', { plan })}
        </p>
      )}
    </section>
  );
}

/** Prev/next buttons from the API's Link header; `page` lives in the screen's query. */
export function Paging({ base, query, hasPrev, hasNext }: { base: string; query: URLSearchParams; hasPrev: boolean; hasNext: boolean }) {
  const t = useT(messages);
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  if (!hasPrev && !hasNext && page === 1) return null;
  const go = (to: number) => navigate(`${base}${withQuery(query, { page: to > 1 ? String(to) : null })}`);
  return <Pager label={t('inv.paging')} className="inv-paging" page={page} pageText={t('inv.page', { page })} hasPrev={hasPrev} hasNext={hasNext} go={go} />;
}
