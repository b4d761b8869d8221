/**
 * The rules of a shipment (spec 2.9, 3.2 approval, 3.3 status, 4.12 update) without SQL or HTTP:
 * the repo reads the record and the settings, asks these, and writes what they answer.
 */

/** 0 not shipped, 2 shipped, 3 shipment inspection (3 is set only through the API). */
export const SHIPMENT_STATUSES = ['0', '2', '3'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
export const SHIPPED: ShipmentStatus = '2';

/** 0 unapproved, 1 approved, 2 rejected. */
export const APPROVAL_STATUSES = ['0', '1', '2'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** 1 supplier, 3 other (spec 2.9: only these). */
export const RECIPIENT_TYPES = ['1', '3'] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];
export const SUPPLIER_RECIPIENT: RecipientType = '1';

/** Spec 4.12 and §8: existing plus added details. */
export const MAX_SHIPMENT_DETAILS = 500;

/** A refusal of a shipment rule: the route answers 400 naming `field`. */
export class ShipmentRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ShipmentRuleError';
  }
}

/**
 * Spec 3.2's default when a registration omits approvalStatus: approved (1) when the contract
 * does not use the approval function; with it, unapproved (0) for a shipment not shipped yet
 * and approved (1) for one registered shipped (2) or in inspection (3).
 */
export function defaultApprovalStatus(approvalFunction: boolean, status: ShipmentStatus): ApprovalStatus {
  if (!approvalFunction) return '1';
  return status === '0' ? '0' : '1';
}

/**
 * Spec 3.2's machine for an update that sends approvalStatus: from 0 (unapproved) to 1 or 2,
 * which stamps approvalDateTime; 1 and 2 are final (sending the same value again changes
 * nothing; another value is refused). Answers whether the approval time is to be stamped.
 */
export function approvalMove(current: ApprovalStatus, sent: ApprovalStatus): { stamp: boolean } {
  if (sent === current) return { stamp: false };
  if (current !== '0') {
    const word = current === '1' ? 'approved' : 'rejected';
    throw new ShipmentRuleError('approvalStatus', `the shipment is already ${word} (${current}); its approvalStatus can change only while unapproved (0)`);
  }
  return { stamp: sent !== '0' };
}

/** A registration's approval: the status sent or its default, and whether it is stamped now. */
export function initialApproval(approvalFunction: boolean, status: ShipmentStatus, sent: ApprovalStatus | undefined): { approvalStatus: ApprovalStatus; stamp: boolean } {
  const approvalStatus = sent ?? defaultApprovalStatus(approvalFunction, status);
  return { approvalStatus, stamp: approvalStatus !== '0' };
}

/**
 * Spec 3.3: a shipped shipment (status 2) takes no update at all when the contract forbids
 * editing shipped shipments, and otherwise may be sent only status 2 again.
 */
export function assertShippedEditable(current: ShipmentStatus, sentStatus: ShipmentStatus | undefined, editForbidden: boolean, shipmentId: string): void {
  if (current !== SHIPPED) return;
  if (editForbidden) {
    throw new ShipmentRuleError('shipment_id', `shipment ${shipmentId} is shipped and the contract's inventory settings forbid editing shipped shipments`);
  }
  if (sentStatus !== undefined && sentStatus !== SHIPPED) {
    throw new ShipmentRuleError('status', `shipment ${shipmentId} is shipped (2) and cannot go back to status ${sentStatus}`);
  }
}

/** The recipient as stored: a supplier's id and name, or another recipient's name. */
export interface Recipient {
  recipientType: RecipientType;
  recipientId: string | null;
  recipientName: string | null;
}

/** What a body sends of the recipient (undefined: not sent; null: cleared). */
export interface RecipientInput {
  recipientType?: RecipientType;
  recipientId?: string | null;
  recipientName?: string | null;
}

/**
 * Spec 4.12's recipient rules on the record after the update (`current` undefined for a
 * registration): type 1 needs a recipientId (a supplier, whose name becomes recipientName) and
 * refuses a recipientName; type 3 needs a recipientName and refuses a recipientId. Answers the
 * recipient to store, with `supplierId` set when a supplier's name must be looked up.
 */
export function resolveRecipient(current: Recipient | undefined, input: RecipientInput): Recipient & { supplierId: string | null } {
  const type = input.recipientType ?? current?.recipientType;
  if (type === undefined) throw new ShipmentRuleError('recipientType', 'is required');
  const typeChanged = current !== undefined && type !== current.recipientType;
  if (type === SUPPLIER_RECIPIENT) {
    if (input.recipientName !== undefined && input.recipientName !== null) {
      throw new ShipmentRuleError('recipientName', "must not be given for recipientType 1 (supplier): it is the supplier's name");
    }
    const id = input.recipientId !== undefined ? input.recipientId : typeChanged ? null : (current?.recipientId ?? null);
    if (id === null) throw new ShipmentRuleError('recipientId', 'is required for recipientType 1 (supplier)');
    const lookUp = input.recipientId !== undefined || typeChanged || current === undefined;
    return { recipientType: type, recipientId: id, recipientName: lookUp ? null : (current?.recipientName ?? null), supplierId: lookUp ? id : null };
  }
  if (input.recipientId !== undefined && input.recipientId !== null) {
    throw new ShipmentRuleError('recipientId', 'must not be given for recipientType 3 (other)');
  }
  const name = input.recipientName !== undefined ? input.recipientName : typeChanged ? null : (current?.recipientName ?? null);
  if (name === null) throw new ShipmentRuleError('recipientName', 'is required for recipientType 3 (other)');
  return { recipientType: type, recipientId: null, recipientName: name, supplierId: null };
}

/**
 * How much a detail moves out of the shipment store's stock now: on a shipped shipment, its
 * quantity less what already left (so stock leaves once, and a later edit moves the
 * difference); nothing while not shipped.
 */
export function stockToMove(status: ShipmentStatus, quantity: number, shippedQuantity: number): number {
  return status === SHIPPED ? quantity - shippedQuantity : 0;
}
