import type { Contract } from '../../platform/contracts/repo.js';

/**
 * Whether the contract's inventory settings use the approval function (issue 14 item 1), which
 * sets a new shipping's default approvalStatus (domain/shipping.ts initialApproval). Read here
 * alone so the shipping rules do not depend on how the settings are stored.
 */
export function approvalFunctionUsed(contract: Contract): boolean {
  return (contract.settings as { inventoryApproval?: boolean }).inventoryApproval === true;
}
