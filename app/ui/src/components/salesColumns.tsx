import type { Translate } from '../i18n';
import type { useFormat } from '../shared/format';
import type { Transaction } from '../shared/sales';
import { terminalName, transactionKind, type salesLabels } from '../shared/salesLabels';
import type { Column } from './DataTable';

/** The column names a sales screen's dictionary gives (each screen words them its own way). */
type ColumnKey = 'col.time' | 'col.terminal' | 'col.id' | 'col.division';
type T = Translate<ColumnKey | keyof (typeof salesLabels)['ja']>;

/**
 * The columns of a transaction list on the sales screens (today's unsettled sales, the closing's
 * transactions): when it was sold (time of day or date and time), at which terminal (named from
 * the store's terminals), its id and what kind of transaction it is.
 */
export function transactionColumns(t: T, f: ReturnType<typeof useFormat>, names: ReadonlyMap<string, string>): Record<'time' | 'dateTime' | 'terminal' | 'id' | 'division', Column<Transaction>> {
  return {
    time: { key: 'time', header: t('col.time'), cell: (x) => f.time(x.terminalTranDateTime) },
    dateTime: { key: 'time', header: t('col.time'), cell: (x) => f.dateTime(x.terminalTranDateTime) },
    terminal: { key: 'terminal', header: t('col.terminal'), cell: (x) => terminalName(t, names, x.terminalId) },
    id: { key: 'id', header: t('col.id'), cell: (x) => x.transactionHeadId },
    division: { key: 'division', header: t('col.division'), cell: (x) => transactionKind(t, x) },
  };
}
