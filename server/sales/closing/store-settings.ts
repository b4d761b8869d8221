import { Decimal } from 'decimal.js';
import { ClosingError, type CashSettings } from '../../domain/closing.js';
import { InvalidInput } from '../../domain/errors.js';
import type { StoreRow } from '../../masters/stores/repo.js';

/** The store settings of 4.15 that the cash rules read. */
export const cashSettingsOf = (store: StoreRow): CashSettings => ({
  bankDepositAutoInput: store.bank_deposit_auto_input,
  bankDepositAutoInputAmount: new Decimal(store.bank_deposit_auto_input_amount),
});

/** Runs closing rules, turning their refusals into the 400 that names the field. */
export function closingRules<T>(rules: () => T): T {
  try {
    return rules();
  } catch (error) {
    if (error instanceof ClosingError) throw InvalidInput.field(error.field, error.message);
    throw error;
  }
}
