-- PostgreSQL part of 0035_storage.sql: a purchase order's status follows its storages (2 ordered
-- → 3 receiving inspection → 4 receiving complete), as the SQLite triggers keep it.
-- replaces: trigger storages_order_status_insert
-- replaces: trigger storages_order_status_update
CREATE FUNCTION storages_order_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE purchase_orders SET
    status = CASE
      WHEN NOT EXISTS (SELECT 1 FROM storages s WHERE s.contract_id = NEW.contract_id AND s.storage_info_id = NEW.storage_info_id AND s.status <> '2') THEN '4'
      WHEN TG_OP = 'INSERT' THEN '3'
      WHEN EXISTS (SELECT 1 FROM storages s WHERE s.contract_id = NEW.contract_id AND s.storage_info_id = NEW.storage_info_id AND s.status <> '0') THEN '3'
      ELSE '2' END,
    upd_at = NEW.upd_at
  WHERE contract_id = NEW.contract_id AND storage_info_id = NEW.storage_info_id AND status IN ('2', '3', '4');
  RETURN NULL;
END $$;
CREATE TRIGGER storages_order_status_insert AFTER INSERT ON storages
  FOR EACH ROW WHEN (NEW.storage_info_id IS NOT NULL AND NEW.status <> '0')
  EXECUTE FUNCTION storages_order_status();
CREATE TRIGGER storages_order_status_update AFTER UPDATE OF status ON storages
  FOR EACH ROW WHEN (NEW.storage_info_id IS NOT NULL AND NEW.status <> OLD.status)
  EXECUTE FUNCTION storages_order_status();
