/**
 * The rules of a storage (the platform's 入荷: goods from a supplier arriving at a store) without
 * SQL or HTTP: when a detail is inspected, which status the storage is in, and what enters the
 * store's stock when it completes.
 */

/** 0 not stored (未入荷), 1 inspecting (検品中), 2 complete (入荷完了). */
export const STORAGE_STATUSES = ['0', '1', '2'] as const;
export type StorageStatus = (typeof STORAGE_STATUSES)[number];
export const NOT_STORED: StorageStatus = '0';
export const INSPECTING: StorageStatus = '1';
export const STORED: StorageStatus = '2';

/** A detail's status: 0 not inspected (未検品), 1 inspected (検品完了). */
export const STORAGE_DETAIL_STATUSES = ['0', '1'] as const;
export type StorageDetailStatus = (typeof STORAGE_DETAIL_STATUSES)[number];

/** compulsoryCompleteFlag: 0 normal, 1 closed by force (強制終了). */
export const COMPULSORY_FLAGS = ['0', '1'] as const;

/** The platform's bound on a storage's details (POST: at most 1000; PATCH: existing plus added). */
export const MAX_STORAGE_DETAILS = 1000;

/** A refusal of a storage rule: the route answers 400 naming `field`. */
export class StorageRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'StorageRuleError';
  }
}

export interface StorageQuantities {
  scheduledQuantity: number;
  inspectionQuantity: number | null;
  stockoutQuantity: number | null;
  compulsoryCompleteFlag: string;
}

/**
 * A detail is inspected when it was closed by force, or when what was counted and what is missing
 * cover what was scheduled (a supplier may deliver more than ordered: the count is what arrived).
 * A detail never counted is not inspected, whatever was scheduled.
 */
export function storageDetailInspected(d: StorageQuantities): boolean {
  if (d.compulsoryCompleteFlag === '1') return true;
  if (d.inspectionQuantity === null) return false;
  return d.inspectionQuantity + (d.stockoutQuantity ?? 0) >= d.scheduledQuantity;
}

export const storageDetailStatus = (d: StorageQuantities): StorageDetailStatus => (storageDetailInspected(d) ? '1' : '0');

/** Whether the store has started on a detail: a count, a shortage or a forced close was recorded. */
const touched = (d: StorageQuantities) => d.compulsoryCompleteFlag === '1' || d.inspectionQuantity !== null || d.stockoutQuantity !== null;

/**
 * The status a storage is in after a write: complete once every detail is inspected, inspecting
 * once any detail was started on, else not stored. It never moves back (a count is never
 * withdrawn: the platform's update takes no nulls).
 */
export function storageStatusOf(current: StorageStatus, details: readonly StorageQuantities[]): StorageStatus {
  const derived = details.length > 0 && details.every(storageDetailInspected) ? STORED : details.some(touched) ? INSPECTING : NOT_STORED;
  return derived > current ? derived : current;
}

/** A complete storage takes no more updates (its stock has moved). */
export function assertStorageUpdatable(storageId: string, status: StorageStatus): void {
  if (status === STORED) throw new StorageRuleError('storage_id', `storage ${storageId} is complete (status 2): it cannot be updated`);
}

/** What a detail adds to the store's stock when its storage completes: what was counted (0 when a forced detail was never counted). */
export const storedQuantity = (d: StorageQuantities): number => d.inspectionQuantity ?? 0;

/** The platform requires an inspection date with a count or a shortage (検品数、欠品数が非nullの場合は必須). */
export function missingInspectionDate(d: { inspectionQuantity: number | null; stockoutQuantity: number | null; inspectionDate: string | null }): boolean {
  return (d.inspectionQuantity !== null || d.stockoutQuantity !== null) && d.inspectionDate === null;
}
