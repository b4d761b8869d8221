import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../db/open.js';

/**
 * The links between products and option groups, read by both sides: a group's option products
 * (product_option_group_products) and the normal products offering a group
 * (products.product_option_group_id). The product master reads them to keep its writes from
 * breaking a group; the option group repo to answer and to refuse deleting a group in use.
 */
export class OptionGroupLinks {
  private readonly groupRow: Statement<unknown[]>;
  private readonly groupsHolding: Statement<unknown[]>;
  private readonly optionsOf: Statement<unknown[]>;
  private readonly offering: Statement<unknown[]>;

  constructor(db: Sqlite) {
    this.groupRow = db.prepare('SELECT 1 FROM topping_groups WHERE contract_id = ? AND topping_group_id = ?');
    this.groupsHolding = db.prepare(
      'SELECT product_option_group_id AS id FROM product_option_group_products WHERE contract_id = ? AND product_id = ? ORDER BY product_option_group_id',
    );
    this.optionsOf = db.prepare(
      'SELECT product_id AS id FROM product_option_group_products WHERE contract_id = ? AND product_option_group_id = ? ORDER BY product_id',
    );
    this.offering = db.prepare('SELECT product_id AS id FROM products WHERE contract_id = ? AND product_option_group_id = ? ORDER BY product_id');
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

  /** The products offering a group when they are sold. */
  productsOffering(contractId: string, groupId: number): number[] {
    return (this.offering.all(contractId, groupId) as { id: number }[]).map((r) => r.id);
  }
}

/** "product 5" or "products 5, 7", for a detail. */
export const productsText = (ids: readonly number[]) => (ids.length === 1 ? `product ${ids[0]}` : `products ${ids.join(', ')}`);
