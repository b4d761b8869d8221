import type { HTMLAttributes, Key, ReactNode, TableHTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';

/** `data-*` attributes a test or a style reads (`data-testid`, `data-value`, `data-product`). */
export type DataAttributes = { [name: `data-${string}`]: string | number | boolean | null | undefined };
export type CellAttributes = TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;
export type RowAttributes = HTMLAttributes<HTMLTableRowElement> & DataAttributes;

/** One column: its header and how a row fills its cell. */
export interface Column<Row> {
  key: string;
  header: ReactNode;
  /** A figure: header and cells right-aligned (`.num`). */
  num?: boolean;
  /** More classes of the header cell (after `num`). */
  headerClass?: string;
  /** More classes of the body cells (after `num`). */
  cellClass?: string;
  /** The row's own header (`<th scope="row">`): screen readers name the row by it. */
  rowHeader?: boolean;
  headerProps?: ThHTMLAttributes<HTMLTableCellElement>;
  /** The cell of a row; left out in a table whose rows are drawn by their own component (`children`). */
  cell?(row: Row, index: number): ReactNode;
  /** Attributes of a body cell beside its class: `data-testid`, `data-value`, `title`. */
  cellProps?(row: Row, index: number): CellAttributes;
}

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

export interface DataTableProps<Row> extends Omit<TableHTMLAttributes<HTMLTableElement>, 'children'>, DataAttributes {
  columns: readonly Column<Row>[];
  /** The body's rows; leave out and give `children` for rows drawn by their own component. */
  rows?: readonly Row[];
  rowKey?(row: Row, index: number): Key | null | undefined;
  rowProps?(row: Row, index: number): RowAttributes;
  /** Shown as the body's only row when `rows` is empty. */
  emptyRow?: ReactNode;
  caption?: ReactNode;
  captionProps?: HTMLAttributes<HTMLTableCaptionElement>;
  /** The footer rows (`<tfoot>`): totals. */
  foot?: ReactNode;
  /** The class of a `<div>` around the table (a scrolling box). */
  wrap?: string;
  children?: ReactNode;
}

/**
 * A table from column definitions: every list and detail table of the screens. Headers are
 * `<th scope="col">`, a column may be the row's header (`<th scope="row">`), figures line up on
 * the right; the attributes tests and styles read are given per table, row and cell.
 */
export function DataTable<Row>({ columns, rows, rowKey, rowProps, emptyRow, caption, captionProps, foot, wrap, children, ...table }: DataTableProps<Row>) {
  const body =
    rows === undefined
      ? children
      : rows.length === 0 && emptyRow !== undefined
        ? (
            <tr>
              <td colSpan={columns.length}>{emptyRow}</td>
            </tr>
          )
        : rows.map((row, i) => (
            <tr key={rowKey ? rowKey(row, i) : i} {...rowProps?.(row, i)}>
              {columns.map((c) => {
                const className = classes(c.num && 'num', c.cellClass);
                return c.rowHeader ? (
                  <th key={c.key} scope="row" className={className} {...c.cellProps?.(row, i)}>
                    {c.cell?.(row, i)}
                  </th>
                ) : (
                  <td key={c.key} className={className} {...c.cellProps?.(row, i)}>
                    {c.cell?.(row, i)}
                  </td>
                );
              })}
            </tr>
          ));
  const element = (
    <table {...table}>
      {caption !== undefined ? <caption {...captionProps}>{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.key} scope="col" className={classes(c.num && 'num', c.headerClass)} {...c.headerProps}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{body}</tbody>
      {foot !== undefined ? <tfoot>{foot}</tfoot> : null}
    </table>
  );
  return wrap ? <div className={wrap}>{element}</div> : element;
}
