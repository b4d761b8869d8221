-- Product option groups (the platform's /product_option_groups, issue 26): the same record as
-- the restaurant API's topping groups (spec 2.7, table topping_groups): a name, a condition
-- (none, over the whole group, per category) with its max and min, and the service that made it
-- (createdIn, which the POS side answers as syncDivision). The POS side adds what the restaurant
-- side does not show: the option products (productDivision 2) the group offers, and the group a
-- normal product offers when it is sold.

-- The option products of a group, listed in product id order. They go with their group (a
-- child of the topping_group record for sync). product_id has no foreign key on purpose (as
-- products.category_id): the repos refuse to delete a product a group holds instead of SQLite
-- failing inside the delete.
CREATE TABLE product_option_group_products (
  contract_id TEXT NOT NULL,
  product_option_group_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  PRIMARY KEY (contract_id, product_option_group_id, product_id),
  FOREIGN KEY (contract_id, product_option_group_id) REFERENCES topping_groups (contract_id, topping_group_id) ON DELETE CASCADE
) STRICT;
-- A product's groups (refusing its deletion or a change of its division while a group holds it).
CREATE INDEX product_option_group_products_product ON product_option_group_products (contract_id, product_id);

-- The option group a normal product (productDivision 0) offers; NULL: none. No foreign key, as
-- above: deleting a group a product names is refused by the repo.
ALTER TABLE products ADD COLUMN product_option_group_id INTEGER;
CREATE INDEX products_option_group ON products (contract_id, product_option_group_id);
