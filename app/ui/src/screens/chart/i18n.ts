import { defineMessages } from '../../i18n';

/** This screen's labels (Japanese is the source of the keys; English must have each). */
export const messages = defineMessages({ 'chart.title': '売上グラフ（過去31日）' }, { 'chart.title': 'Sales, last 31 days' });
