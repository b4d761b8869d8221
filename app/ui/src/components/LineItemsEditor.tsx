import type { ReactNode } from 'react';
import { DataTable, type Column, type DataAttributes, type RowAttributes } from './DataTable';

/**
 * A form's lines (products and quantities, a matrix of quantities per store): a fieldset named by
 * `caption`, one table row per line with the inputs `columns` draw, a remove button on each line
 * `removable` allows (named "remove line n" for screen readers) and an add button. `before` and
 * `after` hold the fieldset's hints and the API's messages about the lines as a whole.
 */
export function LineItemsEditor<Line>({
  caption,
  className,
  disabled,
  lines,
  lineKey,
  lineProps,
  columns,
  actionsLabel,
  removable,
  removeLabel,
  onRemove,
  addLabel,
  onAdd,
  buttonClass,
  wrap,
  table,
  before,
  after,
}: {
  caption: ReactNode;
  className: string;
  disabled?: boolean | undefined;
  lines: readonly Line[];
  lineKey(line: Line): string | number;
  lineProps?(line: Line, index: number): RowAttributes;
  columns: readonly Column<Line>[];
  /** The (visually hidden) header of the remove buttons' column. */
  actionsLabel: string;
  removable(line: Line): boolean;
  removeLabel(n: number): string;
  onRemove(line: Line): void;
  /** Leave out for a form whose lines are fixed. */
  addLabel?: string | undefined;
  onAdd?: (() => void) | undefined;
  buttonClass: string;
  /** The class of a scrolling box around the table. */
  wrap?: string;
  /** The table's own attributes (its class, `data-testid`). */
  table?: { className?: string } & DataAttributes;
  before?: ReactNode;
  after?: ReactNode;
}) {
  const actions: Column<Line> = {
    key: 'actions',
    header: <span className="visually-hidden">{actionsLabel}</span>,
    cell: (line, i) =>
      removable(line) ? (
        <button type="button" className={buttonClass} onClick={() => onRemove(line)}>
          {removeLabel(i + 1)}
        </button>
      ) : null,
  };
  return (
    <fieldset className={className} disabled={disabled}>
      <legend>{caption}</legend>
      {before}
      <DataTable {...table} wrap={wrap} rows={lines} rowKey={lineKey} rowProps={lineProps} columns={[...columns, actions]} />
      {after}
      {onAdd && addLabel ? (
        <button type="button" className={buttonClass} onClick={onAdd}>
          {addLabel}
        </button>
      ) : null}
    </fieldset>
  );
}
