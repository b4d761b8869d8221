import type { ReactNode } from 'react';

/** A status as a small outlined label (`.badge-<status>` gives its colour, styles.css). */
export function Badge({ status, children }: { status: string; children: ReactNode }) {
  return <span className={`badge badge-${status}`}>{children}</span>;
}
