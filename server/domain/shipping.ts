/**
 * The rules of store-to-store shipping and its receiving (spec 2.8, 3.1, 3.4, 4.2, 4.19) without
 * SQL or HTTP: the repo reads the record and the settings, asks these, and writes what they answer.
 *
 * One record, two sides: the shipping store sends it (status 0 → 1, its stock leaves), the
 * receiving store inspects it (1 → 2) and completes it (2 → 3, the stock enters). The shipping
 * side's details are what was sent; the receiving side's details are what is being received.
 * While a modification request is open (3.1) the shipping side may be edited and the receiving
 * side may not; completing the request copies the shipping details into the receiving details.
 */

/** 0 not shipped, 1 not received, 2 receiving inspection, 3 receiving complete (2.8). */
export const SHIPPING_STATUSES = ['0', '1', '2', '3'] as const;
export type ShippingStatus = (typeof SHIPPING_STATUSES)[number];
export const NOT_SHIPPED: ShippingStatus = '0';
export const NOT_RECEIVED: ShippingStatus = '1';
export const INSPECTION: ShippingStatus = '2';
export const RECEIVED: ShippingStatus = '3';
const STATUS_NAMES: Record<ShippingStatus, string> = { '0': 'not shipped', '1': 'not received', '2': 'receiving inspection', '3': 'receiving complete' };
export const describeStatus = (s: ShippingStatus) => `${s} (${STATUS_NAMES[s]})`;

/** What a registration may send (the platform: "0:未出庫、1:未入庫のみ指定可能"). */
export const CREATE_STATUSES = ['0', '1'] as const;

/** 0 unapproved, 1 approved, 2 rejected, 3 request unapproved (a shipping request's; never set here). */
export const APPROVAL_STATUSES = ['0', '1', '2', '3'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** What a body may send (the platform's allowed values). */
export const APPROVAL_INPUTS = ['0', '1', '2'] as const;
export type ApprovalInput = (typeof APPROVAL_INPUTS)[number];

/** 0 no request, 1 requested, 2 modification completed (3.1). */
export const MODIFICATION_STATUSES = ['0', '1', '2'] as const;
export type ModificationStatus = (typeof MODIFICATION_STATUSES)[number];
export const REQUESTED: ModificationStatus = '1';
export const MODIFIED: ModificationStatus = '2';

/** The receiving's own status (the platform's 入庫ステータス): 0 not received, 1 inspecting, 2 complete. */
export type ReceivingStatus = '0' | '1' | '2';
export const receivingStatusOf = (s: ShippingStatus): ReceivingStatus => (s === RECEIVED ? '2' : s === INSPECTION ? '1' : '0');

/** The platform's limits: details at most 1000 (existing plus added), quantities up to 99999. */
export const MAX_SHIPPING_DETAILS = 1000;
export const MAX_QUANTITY = 99999;

/** A refusal of a shipping rule: 400 (a business rule) or 409 (a modification request conflict, spec §7). */
export class ShippingRuleError extends Error {
  constructor(
    readonly status: 400 | 409,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ShippingRuleError';
  }
}

const refuse = (field: string, message: string) => new ShippingRuleError(400, field, message);
const conflict = (field: string, message: string) => new ShippingRuleError(409, field, message);

/**
 * A registration's approval: the status sent, or by default approved (1) when the contract does
 * not use the approval function and, with it, unapproved (0) for a shipping not sent out yet and
 * approved (1) for one registered as sent (as 3.2 does for shipments). A shipping registered as
 * sent (status 1) must be approved; it is stamped whenever it is approved or rejected.
 */
export function initialApproval(approvalFunction: boolean, status: ShippingStatus, sent: ApprovalInput | undefined): { approvalStatus: ApprovalInput; stamp: boolean } {
  const approvalStatus = sent ?? (!approvalFunction || status !== NOT_SHIPPED ? '1' : '0');
  if (status !== NOT_SHIPPED && approvalStatus !== '1') {
    throw refuse('approvalStatus', `a shipping registered as sent (status 1) must be approved (1), not ${approvalStatus}`);
  }
  return { approvalStatus, stamp: approvalStatus !== '0' };
}

/**
 * An update that sends approvalStatus: from 0 (unapproved) to 1 or 2, which stamps
 * approvalDateTime; 1 and 2 are final (the same value again changes nothing).
 */
export function approvalMove(current: ApprovalStatus, sent: ApprovalInput): { stamp: boolean } {
  if (sent === current) return { stamp: false };
  if (current !== '0') {
    const word = current === '1' ? 'approved (1)' : current === '2' ? 'rejected (2)' : 'a request not approved (3)';
    throw refuse('approvalStatus', `the shipping is already ${word}; its approvalStatus can change only while unapproved (0)`);
  }
  return { stamp: sent !== '0' };
}

/** What the approval operation (出庫承認) may send: approve or reject. */
export const APPROVAL_DECISIONS = ['1', '2'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/**
 * The approval operation (出庫承認, PATCH /shipping/{id}/approval) decides a shipping not sent
 * out yet (status 0). The platform sends a shipping out (0 → 1) through this operation alone:
 * approving (1) sends it out whether it was unapproved (0, stamped now) or already approved (the
 * contract does not use the approval function); rejecting (2) keeps it unsent and is possible
 * only while it is unapproved. A shipping already sent out, rejected, or a request not approved
 * (3, not registered here) is refused.
 */
export function approvalDecision(status: ShippingStatus, current: ApprovalStatus, sent: ApprovalDecision): { stamp: boolean; sendOut: boolean } {
  if (status !== NOT_SHIPPED) {
    throw refuse('status', `the shipping is ${describeStatus(status)}: only a shipping not shipped (0) is approved or rejected`);
  }
  if (current === '3') throw refuse('approvalStatus', 'the shipping is a request not approved (3); it is not decided by this operation');
  if (sent === '2' && current === '2') throw refuse('approvalStatus', 'the shipping is already rejected (2)');
  const { stamp } = approvalMove(current, sent);
  return { stamp, sendOut: sent === '1' };
}

export type StatusMove = 'none' | 'ship' | 'inspect' | 'receive';
const MOVES: Record<ShippingStatus, StatusMove> = { '0': 'none', '1': 'ship', '2': 'inspect', '3': 'receive' };

/**
 * The status moves of a shipping update (3.4, decided here): one step forward at a time,
 * 0 → 1 (sent out: the stock leaves the shipping store), 1 → 2 (receiving inspection begins),
 * 2 → 3 (received: the stock enters the receiving store); the same status again is no move.
 * Going back or skipping a step is refused. Sending out needs an approved (1) shipping.
 */
export function statusMove(current: ShippingStatus, sent: ShippingStatus | undefined, approval: ApprovalStatus): StatusMove {
  if (sent === undefined || sent === current) return 'none';
  if (Number(sent) < Number(current)) {
    throw refuse('status', `the shipping cannot go back from ${describeStatus(current)} to ${describeStatus(sent)}`);
  }
  const next = String(Number(current) + 1) as ShippingStatus;
  if (sent !== next) {
    throw refuse('status', `the shipping moves one step at a time: from ${describeStatus(current)} the next status is ${describeStatus(next)}, not ${sent}`);
  }
  if (sent === NOT_RECEIVED && approval !== '1') {
    throw refuse('status', `the shipping must be approved (approvalStatus 1) before it is sent out; it is ${approval}`);
  }
  return MOVES[sent];
}

/**
 * What a shipping update may do in the record's state (spec 3.1 and the platform's rules): a
 * completed receiving (3) takes no update; during receiving inspection (2) the shipping's fields
 * and details may change only under an open modification request, and the receiving cannot be
 * completed (2 → 3) while one is open.
 */
export function assertShippingUpdatable(
  record: { shippingId: string; status: ShippingStatus; modificationRequestStatus: ModificationStatus },
  edits: boolean,
  sentStatus: ShippingStatus | undefined,
): void {
  const { shippingId, status } = record;
  if (status === RECEIVED) throw refuse('status', `shipping ${shippingId} is received (status 3): it can no longer be changed`);
  if (status !== INSPECTION) return;
  const requested = record.modificationRequestStatus === REQUESTED;
  if (edits && !requested) {
    throw conflict(
      'modificationRequestStatus',
      `shipping ${shippingId} is in receiving inspection (status 2): its shipping side can be changed only under a modification request (POST /shipping/${shippingId}/modification_request)`,
    );
  }
  if (sentStatus === RECEIVED && requested) throw requestOpen(shippingId);
}

const requestOpen = (shippingId: string) =>
  conflict(
    'modificationRequestStatus',
    `shipping ${shippingId} has an open modification request (1): its receiving cannot be updated until the request is completed (POST /shipping_modification_requests/${shippingId}/complete)`,
  );

/**
 * A receiving update (PATCH /receiving/{id}): refused while a modification request is open (409,
 * 3.1) and once the receiving is complete (400). A shipping not sent out has no receiving yet
 * (the repo answers 404).
 */
export function assertReceivingUpdatable(record: { shippingId: string; status: ShippingStatus; modificationRequestStatus: ModificationStatus }): void {
  if (record.modificationRequestStatus === REQUESTED) throw requestOpen(record.shippingId);
  if (record.status === RECEIVED) throw refuse('status', `receiving ${record.shippingId} is complete (status 2): it can no longer be changed`);
}

/** 4.2: a request needs receiving in inspection (2) and no request already open; both refusals are 409. */
export function assertCanRequestModification(record: { shippingId: string; status: ShippingStatus; modificationRequestStatus: ModificationStatus }): void {
  if (record.modificationRequestStatus === REQUESTED) {
    throw conflict('modificationRequestStatus', `shipping ${record.shippingId} already has an open modification request (1)`);
  }
  if (record.status !== INSPECTION) {
    throw conflict('status', `shipping ${record.shippingId} is ${describeStatus(record.status)}: a modification can be requested only during receiving inspection (2)`);
  }
}

/** 4.19: completing needs an open request (1); otherwise 409. */
export function assertCanCompleteModification(record: { shippingId: string; modificationRequestStatus: ModificationStatus }): void {
  if (record.modificationRequestStatus !== REQUESTED) {
    const state = record.modificationRequestStatus === MODIFIED ? 'its last request is already completed (2)' : 'it has no modification request (0)';
    throw conflict('modificationRequestStatus', `shipping ${record.shippingId} has no open modification request: ${state}`);
  }
}

export interface ReceivingQuantities {
  scheduledQuantity: number;
  inspectionQuantity: number | null;
  stockoutQuantity: number | null;
}

/**
 * A receiving detail is inspected (the platform's detail status 1) when what was counted and what
 * is missing add up to what was scheduled; one with nothing scheduled and nothing counted needs
 * no inspection. A product the receiving store added (scheduled 0) but counted stays uninspected
 * until the shipping side lists it through a modification request.
 */
export function receivingDetailInspected(d: ReceivingQuantities): boolean {
  if (d.inspectionQuantity === null) return d.scheduledQuantity === 0 && d.stockoutQuantity === null;
  return d.inspectionQuantity + (d.stockoutQuantity ?? 0) === d.scheduledQuantity;
}

/** A receiving update completes the receiving when every one of its details is inspected. */
export const receivingInspected = (details: readonly ReceivingQuantities[]): boolean => details.length > 0 && details.every(receivingDetailInspected);

/** What enters the receiving store's stock for a detail at completion: the counted quantity, or what was scheduled when it was never counted. */
export const receivedQuantity = (d: ReceivingQuantities): number => d.inspectionQuantity ?? d.scheduledQuantity;

export interface ScheduledLine {
  productId: number;
  quantity: number;
}

/**
 * Reflecting the shipping side into the receiving side (at sending out, for edits before
 * inspection, and when a modification request completes, 4.19): each shipping detail's quantity
 * becomes its product's scheduled quantity (a new receiving detail when the product has none);
 * a receiving detail whose product the shipping side does not list is scheduled 0. Inspection
 * figures already entered are kept.
 */
export function reflectScheduled(
  shipping: readonly ScheduledLine[],
  receiving: readonly { productId: number; scheduledQuantity: number }[],
): { insert: ScheduledLine[]; update: ScheduledLine[] } {
  const scheduled = new Map(receiving.map((r) => [r.productId, r.scheduledQuantity]));
  const listed = new Set(shipping.map((s) => s.productId));
  const insert: ScheduledLine[] = [];
  const update: ScheduledLine[] = [];
  for (const s of shipping) {
    const current = scheduled.get(s.productId);
    if (current === undefined) insert.push(s);
    else if (current !== s.quantity) update.push(s);
  }
  for (const r of receiving) if (!listed.has(r.productId) && r.scheduledQuantity !== 0) update.push({ productId: r.productId, quantity: 0 });
  return { insert, update };
}
