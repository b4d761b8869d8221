import { defineMessages } from '../../i18n';

/** This screen's labels (Japanese is the source of the keys; English must have each). */
export const messages = defineMessages({ 'closing.title': '日次締め' }, { 'closing.title': 'Daily closing' });
