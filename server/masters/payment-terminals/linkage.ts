import { ForbiddenError } from '../../domain/errors.js';
import type { ContractSettings } from '../../platform/contracts/repo.js';

/**
 * Spec 4.16: CAT/CCT devices are usable only by contracts that bought the CAT/CCT linkage;
 * anything else is "a contract that cannot use the operation or field" (§7: 403). `field`
 * names the body field that needs it (creditTerminalId); without one the whole operation does.
 */
export function assertCatCctLinkage(settings: ContractSettings, field?: string): void {
  if (settings.catCctLinkage) return;
  const message = 'the contract has no CAT/CCT linkage (contract setting catCctLinkage)';
  throw field ? ForbiddenError.field(field, `${message}, so a payment terminal cannot be linked`) : new ForbiddenError(`${message}, so payment terminals cannot be registered or changed`);
}
