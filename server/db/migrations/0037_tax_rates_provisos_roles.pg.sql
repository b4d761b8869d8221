-- PostgreSQL part of 0037_tax_rates_provisos_roles.sql: every contract made later starts with
-- Japan's rates and the administrator role, stamped with the contract's creation time.
-- replaces: trigger contracts_seed_issue26
CREATE FUNCTION contracts_seed_issue26() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO consumption_tax_rates (contract_id, apply_start_date, tax_rate, ins_at, upd_at)
    SELECT NEW.contract_id, apply_start_date, tax_rate, NEW.created_at, NEW.created_at FROM japan_consumption_tax_history;
  INSERT INTO reduce_tax_rates (contract_id, reduce_tax_id, term_start, name, division, rate, condition_names, advanced_condition, ins_at, upd_at)
    SELECT NEW.contract_id, reduce_tax_id, term_start, name, division, rate, condition_names, advanced_condition, NEW.created_at, NEW.created_at
    FROM japan_reduce_tax_history;
  INSERT INTO roles (contract_id, role_id, role_name, ins_at, upd_at) VALUES (NEW.contract_id, 1, '管理者', NEW.created_at, NEW.created_at);
  RETURN NULL;
END $$;
CREATE TRIGGER contracts_seed_issue26 AFTER INSERT ON contracts
  FOR EACH ROW EXECUTE FUNCTION contracts_seed_issue26();
