import { defineMessages } from '../../i18n';

/** This screen's labels (Japanese is the source of the keys; English must have each). */
export const messages = defineMessages(
  { 'reservations.title': '予約（日別・テーブル別）', 'reservations.orders': 'テーブル利用 {id} の注文' },
  { 'reservations.title': 'Reservations by day and table', 'reservations.orders': 'Orders of table use {id}' },
);
