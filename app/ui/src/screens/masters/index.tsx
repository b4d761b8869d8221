import { useT } from '../../i18n';
import { Link, type ScreenProps } from '../../router';
import { messages } from './i18n';
import { isMasterKind, MASTER_KINDS } from './kinds';

/**
 * Phase-1 placeholder: the sub-nav of master kinds and the heading of the chosen one
 * (`#/masters/<kind>`; params.kind). Phase 2 gives each kind its list/search/paging and form.
 */
export function MastersScreen({ params }: ScreenProps) {
  const t = useT(messages);
  const current = MASTER_KINDS.find((k) => k.kind === params.kind);
  return (
    <section>
      <h1>{current ? t(current.label) : t('masters.title')}</h1>
      <nav aria-label={t('masters.kinds')} className="sub-nav">
        <ul>
          {MASTER_KINDS.map((k) => (
            <li key={k.kind}>
              <Link to={`/masters/${k.kind}`}>{t(k.label)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p>{isMasterKind(params.kind) ? t('common.comingSoon') : t('masters.pick')}</p>
    </section>
  );
}
