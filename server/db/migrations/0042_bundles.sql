-- Bundle sales (the platform's /bundles, issue 26): the same records as spec 2.13's product
-- bundle groups (/product_bundle_groups, which sale lines of productDivision 4 name), one table,
-- the same ids. The platform's `type` is the group's `division`: 1 bundle sale for a price,
-- 2 an amount off, 3 a rate off (value in percent), 4 a set sale for a price. The table is
-- rebuilt because its CHECK kept division to 1 and 2; every row keeps its id and values, and
-- takes the defaults of the platform's new fields: tax included (a price shown to customers
-- includes tax), the standard rate, no priority, points apply, not tax free, subject to
-- subtotal discounts.
CREATE TABLE product_bundle_groups_new (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  product_bundle_group_id INTEGER NOT NULL,
  product_bundle_group_name TEXT NOT NULL,
  division TEXT NOT NULL CHECK (division IN ('1', '2', '3', '4')),
  quantity INTEGER NOT NULL CHECK (quantity >= 1),
  value_units INTEGER NOT NULL CHECK (value_units >= 0),
  start_date TEXT,
  end_date TEXT,
  tax_division TEXT NOT NULL DEFAULT '0' CHECK (tax_division IN ('0', '1', '2')),
  reduce_tax_id TEXT,
  priority INTEGER,
  point_not_applicable TEXT NOT NULL DEFAULT '0' CHECK (point_not_applicable IN ('0', '1')),
  tax_free_division TEXT NOT NULL DEFAULT '0' CHECK (tax_free_division IN ('0', '1', '2')),
  calc_discount TEXT NOT NULL DEFAULT '1' CHECK (calc_discount IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, product_bundle_group_id)
) STRICT;
INSERT INTO product_bundle_groups_new (contract_id, product_bundle_group_id, product_bundle_group_name, division, quantity, value_units,
    start_date, end_date, ins_at, upd_at)
  SELECT contract_id, product_bundle_group_id, product_bundle_group_name, division, quantity, value_units, start_date, end_date, ins_at, upd_at
  FROM product_bundle_groups;
DROP TABLE product_bundle_groups;
ALTER TABLE product_bundle_groups_new RENAME TO product_bundle_groups;

-- The targets of a bundle (the platform's products of a bundle, 商品バンドル明細): each names
-- exactly one category, product or product group code, once per bundle. They go with their
-- bundle (a child of the product_bundle_group record for sync). category_id and product_id have
-- no foreign key, as a bargain's targets: a target names them as a sale line does.
CREATE TABLE product_bundle_products (
  contract_id TEXT NOT NULL,
  product_bundle_id INTEGER NOT NULL,
  product_bundle_group_id INTEGER NOT NULL,
  category_id INTEGER,
  product_id INTEGER,
  product_group_code TEXT,
  PRIMARY KEY (contract_id, product_bundle_id),
  FOREIGN KEY (contract_id, product_bundle_group_id) REFERENCES product_bundle_groups (contract_id, product_bundle_group_id) ON DELETE CASCADE,
  CHECK ((CASE WHEN category_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN product_id IS NULL THEN 0 ELSE 1 END)
    + (CASE WHEN product_group_code IS NULL THEN 0 ELSE 1 END) = 1)
) STRICT;
CREATE INDEX product_bundle_products_group ON product_bundle_products (contract_id, product_bundle_group_id);
