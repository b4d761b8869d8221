import type { ReactNode } from 'react';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { useT } from '../../i18n';
import { useRefs, type Refs } from './data';
import { messages } from './i18n';

/** Renders its child once the stores and products (and suppliers, when asked) are loaded: forms and tables name them. */
export function WithRefs({ children, suppliers }: { children: (refs: Refs) => ReactNode; suppliers?: boolean }) {
  const t = useT(messages);
  const refs = useRefs({ suppliers: !!suppliers });
  if (refs.state === 'error') return <FormProblem problem={refs.problem} />;
  if (refs.state === 'loading') return <Loading text={t('inv.loadingRefs')} />;
  return <>{children(refs.data)}</>;
}
