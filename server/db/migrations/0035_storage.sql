-- Storage (the platform's 入荷: goods arriving from a supplier into a store). A storage is either
-- made by a purchase order (one per delivery store of an order registered as ordered, status 2;
-- storage_info_id is the order, storage_date null until the store sets it) or registered on its
-- own (POST /storage, storage_info_id null). An editable record (registry kind 'master'): the
-- ordering PC makes it, the delivery store's PC inspects and completes it.
--
-- status: 0 not stored (未入荷), 1 inspecting (検品中), 2 complete (入荷完了: the inspected
-- quantities entered the store's stock, division 03). stored_at: when it completed.
CREATE TABLE storages (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  storage_id INTEGER NOT NULL,
  storage_info_id INTEGER,
  supplier_id INTEGER,
  storage_store_id INTEGER NOT NULL,
  storage_expected_date_from TEXT NOT NULL,
  storage_expected_date_to TEXT NOT NULL,
  storage_date TEXT,
  memo TEXT,
  staff_id INTEGER,
  identification_no TEXT,
  rounding_division TEXT NOT NULL CHECK (rounding_division IN ('0', '1', '2')),
  status TEXT NOT NULL CHECK (status IN ('0', '1', '2')),
  stored_at INTEGER,
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, storage_id)
) STRICT;
CREATE INDEX storages_order ON storages (contract_id, storage_info_id);
CREATE INDEX storages_store ON storages (contract_id, storage_store_id, storage_id);
CREATE INDEX storages_upd ON storages (contract_id, upd_at);

-- A storage's details (入荷明細): the scheduled quantity, what the store counted (inspection) and
-- found missing (stockout); compulsory_complete_flag 1 closes a detail whatever its counts.
-- storage_info_id is a copy of the header's. cost is tax excluded (5 decimals as text).
CREATE TABLE storage_details (
  contract_id TEXT NOT NULL,
  storage_id INTEGER NOT NULL,
  storage_detail_id INTEGER NOT NULL,
  storage_info_id INTEGER,
  product_id INTEGER NOT NULL,
  tax_rate TEXT NOT NULL,
  cost TEXT NOT NULL,
  scheduled_quantity INTEGER NOT NULL CHECK (scheduled_quantity >= 0),
  inspection_quantity INTEGER CHECK (inspection_quantity >= 0),
  stockout_quantity INTEGER CHECK (stockout_quantity >= 0),
  stockout_reason TEXT,
  inspection_date TEXT,
  number_memo TEXT,
  date_memo TEXT,
  compulsory_complete_flag TEXT NOT NULL DEFAULT '0' CHECK (compulsory_complete_flag IN ('0', '1')),
  ins_at INTEGER NOT NULL,
  upd_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, storage_id, storage_detail_id),
  UNIQUE (contract_id, storage_id, product_id),
  FOREIGN KEY (contract_id, storage_id) REFERENCES storages (contract_id, storage_id)
) STRICT;

-- A purchase order's status follows its storages (2 ordered → 3 receiving inspection once one of
-- them is inspecting or complete → 4 receiving complete once all are complete), on whichever
-- instance a storage changes or arrives by sync: the order itself is a store-made record only
-- its own node may push, so the store that receives the goods never writes it through the
-- outbox. A provisional order (5) has no storages and is left alone.
CREATE TRIGGER storages_order_status_insert AFTER INSERT ON storages
  WHEN NEW.storage_info_id IS NOT NULL AND NEW.status <> '0'
BEGIN
  UPDATE purchase_orders SET
    status = CASE
      WHEN NOT EXISTS (SELECT 1 FROM storages s WHERE s.contract_id = NEW.contract_id AND s.storage_info_id = NEW.storage_info_id AND s.status <> '2') THEN '4'
      ELSE '3' END,
    upd_at = NEW.upd_at
  WHERE contract_id = NEW.contract_id AND storage_info_id = NEW.storage_info_id AND status IN ('2', '3', '4');
END;
CREATE TRIGGER storages_order_status_update AFTER UPDATE OF status ON storages
  WHEN NEW.storage_info_id IS NOT NULL AND NEW.status <> OLD.status
BEGIN
  UPDATE purchase_orders SET
    status = CASE
      WHEN NOT EXISTS (SELECT 1 FROM storages s WHERE s.contract_id = NEW.contract_id AND s.storage_info_id = NEW.storage_info_id AND s.status <> '2') THEN '4'
      WHEN EXISTS (SELECT 1 FROM storages s WHERE s.contract_id = NEW.contract_id AND s.storage_info_id = NEW.storage_info_id AND s.status <> '0') THEN '3'
      ELSE '2' END,
    upd_at = NEW.upd_at
  WHERE contract_id = NEW.contract_id AND storage_info_id = NEW.storage_info_id AND status IN ('2', '3', '4');
END;
