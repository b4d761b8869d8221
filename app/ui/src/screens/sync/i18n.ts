import { defineMessages } from '../../i18n';

/** This screen's labels (Japanese is the source of the keys; English must have each). */
export const messages = defineMessages({ 'sync.title': '同期の状態' }, { 'sync.title': 'Sync status' });
