import { useState, type KeyboardEvent } from 'react';
import type { ProblemView } from '../../../api/problem';
import type { components } from '../../../api/schema';
import { DataTable } from '../../../components/DataTable';
import { useLang, useT } from '../../../i18n';
import { quantity } from '../../../shared/format';
import type { Refs } from '../data';
import { messages } from './i18n';

export type Line = components['schemas']['StocktakingProduct'];

/** A refusal as one line of text: its fields' messages and the rest of its detail. */
export const problemText = (p: ProblemView): string => [...Object.values(p.fields), ...p.messages].join('; ') || p.title;

/** The difference a count makes: count − stock (null while not counted). */
export const differenceOf = (count: string | null, stock: string): number | null => (count === null ? null : Number(count) - Number(stock));

/**
 * The target products with their stock, count and difference. While counting, each count is an
 * input: Enter (or leaving it) saves a changed count and Enter moves to the next product's count;
 * emptying it takes the count back. Once complete, the stock shown is the one before the count.
 */
export function CountTable({
  lines,
  refs,
  stockOf,
  counting,
  save,
}: {
  lines: Line[];
  refs: Refs;
  /** The store's stock of a product: now while counting, before the adjustment once complete. */
  stockOf(line: Line): string;
  counting: boolean;
  save(productId: string, count: string | null): Promise<string | null>;
}) {
  const t = useT(messages);
  const { lang } = useLang();
  return (
    <DataTable
      wrap="inv-table-wrap"
      className="inv-table stk-table"
      data-testid="count-table"
      rows={lines}
      rowKey={(l) => l.productId}
      rowProps={(l) => ({ 'data-product': l.productId, 'data-counted': l.inputStocktakingQuantity !== null })}
      columns={[
        { key: 'product', header: t('inv.product'), rowHeader: true, cell: (l) => refs.productLabel(l.productId) },
        { key: 'stock', header: counting ? t('stk.stock') : t('stk.stockBefore'), num: true, cell: (l) => quantity(stockOf(l), lang), cellProps: () => ({ 'data-testid': 'stock' }) },
        {
          key: 'count',
          header: t('stk.input'),
          num: true,
          cell: (l, i) =>
            counting ? (
              <CountInput key={`${l.productId}:${l.inputStocktakingQuantity ?? ''}`} line={l} index={i} label={t('stk.countOf', { product: refs.productLabel(l.productId) })} save={save} />
            ) : (
              quantity(l.inputStocktakingQuantity, lang) || <span className="inv-muted">{t('stk.notCounted')}</span>
            ),
          cellProps: () => ({ 'data-testid': 'count' }),
        },
        {
          key: 'diff',
          header: t('stk.diff'),
          num: true,
          cell: (l) => {
            const d = differenceOf(l.inputStocktakingQuantity, stockOf(l));
            return d === null ? '' : <span className={d < 0 ? 'stk-minus' : d > 0 ? 'stk-plus' : undefined}>{d > 0 ? `+${quantity(d, lang)}` : quantity(d, lang)}</span>;
          },
          cellProps: () => ({ 'data-testid': 'diff' }),
        },
      ]}
    />
  );
}

function CountInput({ line, index, label, save }: { line: Line; index: number; label: string; save(productId: string, count: string | null): Promise<string | null> }) {
  const [value, setValue] = useState(line.inputStocktakingQuantity ?? '');
  const [error, setError] = useState<string | null>(null);
  const commit = async () => {
    const next = value.trim() === '' ? null : value.trim();
    if (next === line.inputStocktakingQuantity) return;
    setError(await save(line.productId, next));
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    void commit();
    (document.querySelector(`[data-count-index="${index + 1}"]`) as HTMLInputElement | null)?.focus();
  };
  return (
    <>
      <input
        className="stk-count"
        inputMode="numeric"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        title={error ?? undefined}
        data-count-index={index}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => void commit()}
        onKeyDown={onKey}
      />
      {error ? <small className="field-error">{error}</small> : null}
    </>
  );
}
