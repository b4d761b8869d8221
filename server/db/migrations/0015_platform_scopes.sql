-- Scopes take the platform's names (DESIGN §3). On the platform `pos.orders` means purchase
-- orders, receiving and shipments; the restaurant routes it guarded here move to the `waiter.`
-- family, and restaurant menus are read with `waiter.menus:read`. `pos.inventory` was a
-- placeholder nothing served; the platform's inventory scopes replace it.
-- A client that held the restaurant scopes keeps the same access under the new names.
UPDATE api_clients SET scopes = trim(
  replace(replace(replace(replace(replace(' ' || scopes || ' ',
    ' pos.orders:read ', ' waiter.orders:read waiter.orders:history waiter.stores:read '),
    ' pos.orders:write ', ' waiter.orders:write '),
    ' pos.products:read ', ' pos.products:read waiter.menus:read '),
    ' pos.inventory:read ', ' pos.stock:read pos.stock-changes:read pos.transfers:read pos.orders:read pos.suppliers:read pos.losses:read pos.stocktaking:read '),
    ' pos.inventory:write ', ' pos.stock:write pos.transfers:write pos.orders:write pos.suppliers:write pos.losses:write pos.stocktaking:write ')
);

UPDATE access_tokens SET scopes = trim(
  replace(replace(replace(replace(replace(' ' || scopes || ' ',
    ' pos.orders:read ', ' waiter.orders:read waiter.orders:history waiter.stores:read '),
    ' pos.orders:write ', ' waiter.orders:write '),
    ' pos.products:read ', ' pos.products:read waiter.menus:read '),
    ' pos.inventory:read ', ' pos.stock:read pos.stock-changes:read pos.transfers:read pos.orders:read pos.suppliers:read pos.losses:read pos.stocktaking:read '),
    ' pos.inventory:write ', ' pos.stock:write pos.transfers:write pos.orders:write pos.suppliers:write pos.losses:write pos.stocktaking:write ')
);
