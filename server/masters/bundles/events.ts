import { BUNDLE_EVENT, BUNDLE_PRODUCT_EVENT, raiseEvent, type EventContext } from '../../events/webhook-events.js';

/**
 * The platform's pos:bundles notice for a bundle written through either view (/bundles or
 * /product_bundle_groups: one record). Call it inside the write.
 */
export function raiseBundleEvent(ctx: EventContext, contractId: string, groupId: string, action: 'created' | 'edited' | 'deleted'): void {
  raiseEvent(ctx, { contractId, event: BUNDLE_EVENT, action, payload: { productBundleGroupIds: [groupId] }, cause: { entity: 'product_bundle_group', id: groupId } });
}

/** The platform's pos:bundle-products notice: the targets (商品バンドル明細) added to or removed from a bundle. */
export function raiseBundleProductEvent(ctx: EventContext, contractId: string, groupId: string, productBundleIds: readonly number[], action: 'created' | 'deleted'): void {
  const ids = productBundleIds.map((id) => ({ productBundleGroupId: groupId, productBundleId: String(id) }));
  raiseEvent(ctx, { contractId, event: BUNDLE_PRODUCT_EVENT, action, payload: { ids }, cause: { entity: 'product_bundle_group', id: groupId } });
}
