import type { HTMLAttributes, ReactNode } from 'react';
import type { DataAttributes } from './DataTable';

/** One fact of a record: a label and its value (`valueProps`: what tests read, `data-testid`). */
export interface Fact {
  label: ReactNode;
  value: ReactNode;
  /** The class of the pair (`inv-wide`: the whole row). */
  className?: string;
  valueProps?: HTMLAttributes<HTMLElement> & DataAttributes;
}

/** A record's facts as a description list, each pair in its own <div> (a grid cell); false and null items are left out. */
export function Facts({ items, className, testId }: { items: readonly (Fact | false | null)[]; className?: string; testId?: string }) {
  return (
    <dl className={className} data-testid={testId}>
      {items.map((fact, i) =>
        fact ? (
          <div key={i} className={fact.className}>
            <dt>{fact.label}</dt>
            <dd {...fact.valueProps}>{fact.value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
