import type { ReactNode } from 'react';
import { FormProblem } from '../../../components/FormProblem';
import { Loading } from '../../../components/LoadState';
import { useT } from '../../../i18n';
import type { ScreenProps } from '../../../router';
import type { Refs } from '../data';
import { InventoryFrame } from '../Frame';
import { WithRefs } from '../WithRefs';
import { useDivisions, type Divisions } from './data';
import { messages } from './i18n';
import { LossCreate } from './LossCreate';
import { LossDetail } from './LossDetail';
import { LossDivisions } from './LossDivisions';
import { LossList } from './LossList';
import './losses.css';

/** Renders its child once the stores, products and loss divisions are loaded. */
function WithDivisions({ children }: { children: (refs: Refs, divisions: Divisions, reload: () => void) => ReactNode }) {
  const divisions = useDivisions();
  return (
    <WithRefs>
      {(refs) =>
        divisions.state === 'error' ? <FormProblem problem={divisions.problem} /> : divisions.state === 'loading' ? <Loading /> : children(refs, divisions.data, divisions.reload)
      }
    </WithRefs>
  );
}

/** `#/inventory/losses`: the losses (ロス登録), filtered and paged by the API, and the loss divisions under them. */
export function LossesScreen({ query }: ScreenProps) {
  const t = useT(messages);
  const deleted = query.get('deleted');
  return (
    <InventoryFrame title={t('inv.losses')} testId="losses-list">
      {deleted ? (
        <p role="status" className="inv-notice" data-testid="notice">
          {t('ls.deleted', { id: deleted })}
        </p>
      ) : null}
      <WithDivisions>
        {(refs, divisions, reload) => (
          <>
            <LossList query={query} refs={refs} divisions={divisions} />
            <LossDivisions divisions={divisions} onChanged={reload} />
          </>
        )}
      </WithDivisions>
    </InventoryFrame>
  );
}

/** `#/inventory/losses/new` (the registration form) and `#/inventory/losses/<id>` (one loss, its edit and delete). */
export function LossDetailScreen({ params, query }: ScreenProps) {
  const t = useT(messages);
  const id = params.id ?? '';
  return (
    <InventoryFrame title={t('inv.losses')} testId="loss-screen">
      <WithDivisions>
        {(refs, divisions) =>
          id === 'new' ? <LossCreate refs={refs} divisions={divisions} /> : <LossDetail key={id} id={id} refs={refs} divisions={divisions} created={query.has('created')} />
        }
      </WithDivisions>
    </InventoryFrame>
  );
}
