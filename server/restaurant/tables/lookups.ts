import type { Sqlite } from '../../db/open.js';

export interface StaffMaster {
  staff_id: number;
  staff_name: string;
}

export interface MenuMaster {
  menu_id: number;
  store_id: number | null;
  menu_name: string;
  menu_type: string;
  category_id: number | null;
}

/** Reads of masters owned by other resources (staff, menus, categories) that the floor names. */
export class FloorLookups {
  private readonly staff;
  private readonly menu;
  private readonly category;
  private readonly storeMenus;

  constructor(db: Sqlite) {
    this.staff = db.prepare('SELECT staff_id, staff_name FROM staffs WHERE contract_id = ? AND staff_id = ?');
    this.menu = db.prepare(
      'SELECT menu_id, store_id, menu_name, menu_type, category_id FROM menus WHERE contract_id = ? AND menu_id = ?',
    );
    this.storeMenus = db.prepare(
      `SELECT menu_id, store_id, menu_name, menu_type, category_id FROM menus
       WHERE contract_id = ? AND store_id = ? AND menu_type = 'normal' ORDER BY menu_id LIMIT ?`,
    );
    this.category = db.prepare('SELECT category_id FROM categories WHERE contract_id = ? AND category_id = ?');
  }

  findStaff(contractId: string, staffId: string): StaffMaster | undefined {
    return this.staff.get(contractId, staffId) as StaffMaster | undefined;
  }

  findMenu(contractId: string, menuId: string): MenuMaster | undefined {
    return this.menu.get(contractId, menuId) as MenuMaster | undefined;
  }

  /** The first `limit` single (normal) menus of a store, for the demo's order. */
  normalMenusOf(contractId: string, storeId: string, limit: number): MenuMaster[] {
    return this.storeMenus.all(contractId, storeId, limit) as MenuMaster[];
  }

  categoryExists(contractId: string, categoryId: string): boolean {
    return this.category.get(contractId, categoryId) !== undefined;
  }
}
