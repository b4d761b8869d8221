import { useT } from '../../i18n';
import { Link, type ScreenProps } from '../../router';
import { messages } from './i18n';
import { isMasterKind, MASTER_KINDS } from './kinds';
import { MasterForm } from './MasterForm';
import { MasterList } from './MasterList';
import { SPECS } from './specs';
import './masters.css';

/**
 * The masters: a sub-nav of the kinds (`#/masters/<kind>`), then the kind's list, or its form
 * for `?new=1` / `?edit=<id>` (the list's filters stay in the query, so the form goes back to
 * the same page of the list). Every kind is drawn by the same list and form from its
 * description in specs/.
 */
export function MastersScreen({ params, query }: ScreenProps) {
  const t = useT(messages);
  const current = MASTER_KINDS.find((k) => k.kind === params.kind);
  const spec = isMasterKind(params.kind) ? SPECS[params.kind] : null;
  const edit = query.get('edit');
  return (
    <section className="masters">
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
      {!spec ? (
        <p>{params.kind ? t('masters.unknownKind', { kind: params.kind }) : t('masters.pick')}</p>
      ) : edit !== null || query.has('new') ? (
        <MasterForm key={`${spec.kind}:${edit ?? 'new'}`} spec={spec} id={edit} query={query} />
      ) : (
        <MasterList key={spec.kind} spec={spec} query={query} />
      )}
    </section>
  );
}
