import { defineMessages } from '../../i18n';

/** This screen's labels (Japanese is the source of the keys; English must have each). */
export const messages = defineMessages(
  {
    'chart.title': '売上グラフ（過去31日）',
    'chart.store': '店舗',
    'chart.allStores': 'すべての店舗',
    'chart.period': '{from} 〜 {to}',
    'chart.series': '売上',
    'chart.chartLabel': '{from} から {to} までの日別売上の棒グラフ（同じ数値を右の表に示します）',
    'chart.table': '日別売上',
    'chart.date': '日付',
    'chart.count': '件数',
    'chart.total': '売上合計',
    'chart.sum': '31日間の合計',
    'chart.reload': '再読み込み',
    'chart.truncated': '取引が多すぎるため、一部の取引だけを集計しています。',
    'chart.method':
      '売上 = 通常売上の取引（取消を除く。返品取消はマイナス）の合計金額を、端末の取引日時で契約のタイムゾーン（{zone}）の日ごとに合計したものです。締め前の日も含みます。',
  },
  {
    'chart.title': 'Sales, last 31 days',
    'chart.store': 'Store',
    'chart.allStores': 'All stores',
    'chart.period': '{from} – {to}',
    'chart.series': 'Sales',
    'chart.chartLabel': 'Bar chart of the daily sales from {from} to {to} (the same figures are in the table beside it)',
    'chart.table': 'Daily sales',
    'chart.date': 'Date',
    'chart.count': 'Sales',
    'chart.total': 'Total',
    'chart.sum': 'Total of the 31 days',
    'chart.reload': 'Reload',
    'chart.truncated': 'Too many transactions: only part of them is counted.',
    'chart.method':
      'Sales = the totals of sale transactions (cancelled ones left out, return-cancels negative) summed per day of their terminal time in the contract time zone ({zone}). Days not yet closed are included.',
  },
);
