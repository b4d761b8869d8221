import { defineMessages } from '../../i18n';

/** This screen's labels (Japanese is the source of the keys; English must have each). */
export const messages = defineMessages(
  { 'masters.title': 'マスター', 'masters.kinds': 'マスターの種類', 'masters.pick': '編集するマスターを選んでください。' },
  { 'masters.title': 'Masters', 'masters.kinds': 'Kinds of master', 'masters.pick': 'Choose the master to edit.' },
);
