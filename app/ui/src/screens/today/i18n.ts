import { defineMessages } from '../../i18n';

/** This screen's labels (Japanese is the source of the keys; English must have each). */
export const messages = defineMessages({ 'today.title': '本日の売上' }, { 'today.title': "Today's sales" });
