import { defineMessages } from '../i18n';

/**
 * Labels the sales screens share (today and closing spread them into their own dictionaries):
 * transaction head divisions (spec 2.13) and payment rows.
 */
export const salesLabels = defineMessages(
  {
    'division.1': '売上',
    'division.2': '入金',
    'division.3': '出金',
    'division.4': '預り金',
    'division.5': '預り金返金',
    'division.6': 'ポイント加算',
    'division.7': 'ポイント減算',
    'division.13': 'マイル加算',
    'division.14': 'マイル減算',
    'division.other': '区分 {division}',
    'tx.returnCancel': '返品取消',
    'tx.return': '返品あり',
    'tx.cancelled': '取消済み',
    'payment.cash': '現金',
    'payment.credit': 'クレジット',
    'payment.tipCash': 'チップ（現金）',
    'payment.tipCredit': 'チップ（クレジット）',
    'store.label': '店舗',
    'store.warehouse': '{name}（倉庫）',
    'terminal.unknown': '端末 {id}',
    'terminal.none': '端末なし',
  },
  {
    'division.1': 'Sale',
    'division.2': 'Deposit',
    'division.3': 'Withdrawal',
    'division.4': 'Custody money',
    'division.5': 'Custody refund',
    'division.6': 'Point add',
    'division.7': 'Point subtract',
    'division.13': 'Mile add',
    'division.14': 'Mile subtract',
    'division.other': 'Division {division}',
    'tx.returnCancel': 'Return-cancel',
    'tx.return': 'With return',
    'tx.cancelled': 'Cancelled',
    'payment.cash': 'Cash',
    'payment.credit': 'Credit',
    'payment.tipCash': 'Tips (cash)',
    'payment.tipCredit': 'Tips (credit)',
    'store.label': 'Store',
    'store.warehouse': '{name} (warehouse)',
    'terminal.unknown': 'Terminal {id}',
    'terminal.none': 'No terminal',
  },
);

type LabelKey = keyof (typeof salesLabels)['ja'];
const DIVISIONS = new Set(['1', '2', '3', '4', '5', '6', '7', '13', '14']);

/** "売上", "売上・返品取消", "入金・取消済み": the head division and what happened to the transaction. */
export function transactionKind(
  t: (key: LabelKey, vars?: Record<string, string>) => string,
  tx: { [K in 'transactionHeadDivision' | 'disposeDivision' | 'cancelDivision' | 'returnSales' | 'returnAmount']?: string | null },
): string {
  const division = tx.transactionHeadDivision ?? '';
  const parts = [DIVISIONS.has(division) ? t(`division.${division}` as LabelKey) : t('division.other', { division })];
  if (tx.disposeDivision === '2') parts.push(t('tx.returnCancel'));
  else if (tx.returnSales === '1' || (tx.returnAmount && Number(tx.returnAmount) !== 0)) parts.push(t('tx.return'));
  if (tx.cancelDivision === '1') parts.push(t('tx.cancelled'));
  return parts.join('・');
}

/** A terminal's name from the store's terminals, or "端末 1001" for one not (or no longer) registered. */
export function terminalName(
  t: (key: LabelKey, vars?: Record<string, string>) => string,
  names: ReadonlyMap<string, string>,
  terminalId: string | null | undefined,
): string {
  if (!terminalId) return t('terminal.none');
  return names.get(terminalId) ?? t('terminal.unknown', { id: terminalId });
}
