import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../db/open.js';
import { InvalidInput } from '../../domain/errors.js';
import { OPTION_GROUP_EVENT, raiseEvent, type EventContext } from '../../events/webhook-events.js';

/**
 * The links between products and option groups, read by both sides: a group's option products
 * (product_option_group_products), the normal products offering a group
 * (products.product_option_group_id) and the restaurant's toppings in it. The product master
 * reads them to keep its writes from breaking a group; both views of a group (/product_option_groups
 * and the restaurant's /topping_groups) to refuse deleting a group in use.
 */
export class OptionGroupLinks {
  private readonly groupRow: Statement<unknown[]>;
  private readonly groupsHolding: Statement<unknown[]>;
  private readonly optionsOf: Statement<unknown[]>;
  private readonly offering: Statement<unknown[]>;
  private readonly firstTopping: Statement<unknown[]>;

  constructor(db: Sqlite) {
    this.groupRow = db.prepare('SELECT 1 FROM topping_groups WHERE contract_id = ? AND topping_group_id = ?');
    this.groupsHolding = db.prepare(
      'SELECT product_option_group_id AS id FROM product_option_group_products WHERE contract_id = ? AND product_id = ? ORDER BY product_option_group_id',
    );
    this.optionsOf = db.prepare(
      'SELECT product_id AS id FROM product_option_group_products WHERE contract_id = ? AND product_option_group_id = ? ORDER BY product_id',
    );
    this.offering = db.prepare('SELECT product_id AS id FROM products WHERE contract_id = ? AND product_option_group_id = ? ORDER BY product_id');
    this.firstTopping = db.prepare('SELECT topping_id FROM toppings WHERE contract_id = ? AND topping_group_id = ? ORDER BY topping_id LIMIT 1');
  }

  groupExists(contractId: string, groupId: string | number): boolean {
    return this.groupRow.get(contractId, groupId) !== undefined;
  }

  /** The groups holding a product as one of their options. */
  groupsHoldingProduct(contractId: string, productId: number): number[] {
    return (this.groupsHolding.all(contractId, productId) as { id: number }[]).map((r) => r.id);
  }

  /** A group's option products, in product id order. */
  optionProducts(contractId: string, groupId: number): number[] {
    return (this.optionsOf.all(contractId, groupId) as { id: number }[]).map((r) => r.id);
  }

  /**
   * A group is deleted, through either view, only when nothing points at it: 400 while toppings
   * belong to it (move or delete them) or a product offers it (its productOptionGroupId would
   * name a group that is gone). `param` and `noun` are the deleting path's own words.
   */
  assertUnused(contractId: string, groupId: number, at: { param: string; noun: string }): void {
    const topping = this.firstTopping.get(contractId, groupId) as { topping_id: number } | undefined;
    if (topping) throw InvalidInput.field(at.param, `${at.noun} ${groupId} has toppings (topping ${topping.topping_id}); move or delete them first`);
    const users = this.productsOffering(contractId, groupId);
    if (users.length) {
      throw InvalidInput.field(
        at.param,
        `${at.noun} ${groupId} is in use: ${productsText(users)} offer it; set their productOptionGroupId to another group or null first`,
      );
    }
  }

  /** The products offering a group when they are sold. */
  productsOffering(contractId: string, groupId: number): number[] {
    return (this.offering.all(contractId, groupId) as { id: number }[]).map((r) => r.id);
  }
}

/** "product 5" or "products 5, 7", for a detail. */
export const productsText = (ids: readonly number[]) => (ids.length === 1 ? `product ${ids[0]}` : `products ${ids.join(', ')}`);

/**
 * The platform's pos:option-groups notice for a group written through either view (a group the
 * restaurant side makes is an option group of syncDivision 1 on the platform). Call it inside the write.
 */
export function raiseOptionGroupEvent(ctx: EventContext, contractId: string, groupId: string, action: 'created' | 'edited' | 'deleted'): void {
  raiseEvent(ctx, { contractId, event: OPTION_GROUP_EVENT, action, payload: { productOptionGroupIds: [groupId] }, cause: { entity: 'topping_group', id: groupId } });
}
