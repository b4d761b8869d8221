-- Members carry the platform's customer fields (issue 16): contact, company, personal data,
-- their own point giving unit, notes, the store they belong to. Texts are TEXT as sent, dates
-- TEXT YYYY-MM-DD, sex '0' unknown / '1' male / '2' female, mail_receive_flag '0' refused /
-- '1' allowed. point_giving_unit_price and point_giving_unit are TEXT decimals, both or neither.
-- last_come_at (lastComeDateTime) is epoch ms, written by the server, never by a client.
ALTER TABLE customers ADD COLUMN customer_no TEXT;
ALTER TABLE customers ADD COLUMN staff_rank TEXT;
ALTER TABLE customers ADD COLUMN post_code TEXT;
ALTER TABLE customers ADD COLUMN address TEXT;
ALTER TABLE customers ADD COLUMN phone_number TEXT;
ALTER TABLE customers ADD COLUMN fax_number TEXT;
ALTER TABLE customers ADD COLUMN mobile_number TEXT;
ALTER TABLE customers ADD COLUMN mail_address TEXT;
ALTER TABLE customers ADD COLUMN mail_address2 TEXT;
ALTER TABLE customers ADD COLUMN mail_address3 TEXT;
ALTER TABLE customers ADD COLUMN company_name TEXT;
ALTER TABLE customers ADD COLUMN department_name TEXT;
ALTER TABLE customers ADD COLUMN managerial_position TEXT;
ALTER TABLE customers ADD COLUMN sex TEXT NOT NULL DEFAULT '0' CHECK (sex IN ('0', '1', '2'));
ALTER TABLE customers ADD COLUMN birth_date TEXT;
ALTER TABLE customers ADD COLUMN point_expire_date TEXT;
ALTER TABLE customers ADD COLUMN last_come_at INTEGER;
ALTER TABLE customers ADD COLUMN entry_date TEXT;
ALTER TABLE customers ADD COLUMN leave_date TEXT;
ALTER TABLE customers ADD COLUMN point_giving_unit_price TEXT;
ALTER TABLE customers ADD COLUMN point_giving_unit TEXT;
ALTER TABLE customers ADD COLUMN passport_no TEXT;
ALTER TABLE customers ADD COLUMN nationality TEXT;
ALTER TABLE customers ADD COLUMN alphabet_name TEXT;
ALTER TABLE customers ADD COLUMN mail_receive_flag TEXT NOT NULL DEFAULT '1' CHECK (mail_receive_flag IN ('0', '1'));
ALTER TABLE customers ADD COLUMN note TEXT;
ALTER TABLE customers ADD COLUMN note2 TEXT;
ALTER TABLE customers ADD COLUMN favorite_list TEXT;
ALTER TABLE customers ADD COLUMN browsing_list TEXT;
ALTER TABLE customers ADD COLUMN store_id INTEGER;
CREATE INDEX customers_no ON customers (contract_id, customer_no) WHERE customer_no IS NOT NULL;

-- Every change of a member's point or mile balance (customers.point / customers.mile, the
-- balance sales use), with its cause, the transaction it belongs to (sales, attaching a member
-- to a sale, return-cancels), who made it (the API client, and the staff member of a user
-- token) and the balances after it. Deltas and balances are TEXT decimals like the balance.
-- Causes: manual_set (PATCH /customers/{id}/point), manual_add (POST .../point/add),
-- customer_write (point or mile given with POST or PATCH /customers), expire (points past
-- pointExpireDate), sale, return_cancel, sale_attach and sale_detach (PATCH
-- /transactions/{id}/customer: the member a sale's points move to, and the one they leave).
CREATE TABLE customer_point_movements (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  movement_id INTEGER NOT NULL,
  customer_id INTEGER NOT NULL,
  cause TEXT NOT NULL,
  point_delta TEXT NOT NULL,
  point_after TEXT NOT NULL,
  mile_delta TEXT NOT NULL,
  mile_after TEXT NOT NULL,
  transaction_head_id INTEGER,
  client_id TEXT,
  staff_id INTEGER,
  moved_at INTEGER NOT NULL,
  PRIMARY KEY (contract_id, movement_id)
) STRICT;
CREATE INDEX customer_point_movements_customer ON customer_point_movements (contract_id, customer_id, movement_id);
CREATE INDEX customer_point_movements_transaction ON customer_point_movements (contract_id, transaction_head_id)
  WHERE transaction_head_id IS NOT NULL;
