import type { ReactNode } from 'react';
import { useT } from '../i18n';

/** A screen still to be built: its heading and a note (phase 2 replaces each one). */
export function Stub({ title, children }: { title: string; children?: ReactNode }) {
  const t = useT();
  return (
    <section>
      <h1>{title}</h1>
      <p>{t('common.comingSoon')}</p>
      {children}
    </section>
  );
}
