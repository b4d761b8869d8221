-- PostgreSQL part of 0027_shipments_purchase_orders.sql: the trigger that keeps on_order (1 while
-- the order is open: status 2 ordered or 5 provisional) whatever changes an order's status.
-- replaces: trigger purchase_orders_on_order
CREATE FUNCTION purchase_orders_on_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE purchase_order_delivery_products SET on_order = CASE WHEN NEW.status IN ('2', '5') THEN 1 ELSE 0 END
  WHERE contract_id = NEW.contract_id AND storage_info_id = NEW.storage_info_id;
  RETURN NULL;
END $$;
CREATE TRIGGER purchase_orders_on_order AFTER UPDATE OF status ON purchase_orders
  FOR EACH ROW WHEN ((OLD.status IN ('2', '5')) <> (NEW.status IN ('2', '5')))
  EXECUTE FUNCTION purchase_orders_on_order();
