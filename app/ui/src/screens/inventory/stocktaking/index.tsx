import { useT } from '../../../i18n';
import type { ScreenProps } from '../../../router';
import { InventoryFrame } from '../Frame';
import { WithRefs } from '../WithRefs';
import { messages } from './i18n';
import './stocktaking.css';
import { StocktakingCreate } from './StocktakingCreate';
import { StocktakingDetail } from './StocktakingDetail';
import { StocktakingList } from './StocktakingList';

/** `#/inventory/stocktaking`: the stores' stocktakings (棚卸), filtered and paged by the API. */
export function StocktakingScreen({ query }: ScreenProps) {
  const t = useT(messages);
  return (
    <InventoryFrame title={t('stk.title')} testId="stocktaking-list">
      <WithRefs>{(refs) => <StocktakingList query={query} refs={refs} />}</WithRefs>
    </InventoryFrame>
  );
}

/** `#/inventory/stocktaking/new` (start one) and `#/inventory/stocktaking/<id>` (count, see the differences, complete). */
export function StocktakingDetailScreen({ params, query }: ScreenProps) {
  const t = useT(messages);
  const id = params.id ?? '';
  return (
    <InventoryFrame title={t('stk.title')} testId="stocktaking-screen">
      <WithRefs>{(refs) => (id === 'new' ? <StocktakingCreate refs={refs} /> : <StocktakingDetail key={id} id={id} refs={refs} created={query.has('created')} />)}</WithRefs>
    </InventoryFrame>
  );
}
