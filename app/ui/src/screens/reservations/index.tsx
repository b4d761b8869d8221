import { Stub } from '../../components/Stub';
import { useT } from '../../i18n';
import type { ScreenProps } from '../../router';
import { messages } from './i18n';

/** Phase-1 placeholder: reservations of a day (`#/reservations?date=YYYY-MM-DD`) by table. */
export function ReservationsScreen(_props: ScreenProps) {
  const t = useT(messages);
  return <Stub title={t('reservations.title')} />;
}

/** Phase-1 placeholder: the orders of one table use (`#/reservations/table-uses/<tableUseId>`). */
export function TableUseOrdersScreen({ params }: ScreenProps) {
  const t = useT(messages);
  return <Stub title={t('reservations.orders', { id: params.tableUseId ?? '' })} />;
}
