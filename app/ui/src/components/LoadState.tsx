import type { ReactNode } from 'react';
import { useT } from '../i18n';
import type { Loaded } from '../shared/load';
import { FormProblem } from './FormProblem';

/** "Loading…" marked busy (screen readers say so; the browser tests wait for no aria-busy). */
export function Loading({ text }: { text?: string }) {
  const t = useT();
  return <p aria-busy="true">{text ?? t('common.loading')}</p>;
}

/**
 * What a request gives the screen: its problem, "Loading…", the `empty` text when the answer
 * has nothing to show, else `children(data)`.
 */
export function LoadState<T>({ value, empty, isEmpty, children }: { value: Loaded<T>; empty?: ReactNode; isEmpty?(data: T): boolean; children(data: T): ReactNode }) {
  if (value.state === 'error') return <FormProblem problem={value.problem} />;
  if (value.state === 'loading') return <Loading />;
  if (empty !== undefined && isEmpty?.(value.data)) return <p>{empty}</p>;
  return <>{children(value.data)}</>;
}
