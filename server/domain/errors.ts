/**
 * Refusals of the rules, typed by what went wrong and knowing nothing of HTTP. Rules, services
 * and repos throw them; the one error handler (server/platform/http/errors.ts) answers each
 * kind with its status, and a job or the CLI reads the same `message`.
 *
 * The message names the field the way DESIGN §3 wants a detail to: `[storeId] store 12 does
 * not exist`; `field` and `reason` keep the two parts for a caller that wants them apart.
 */

/**
 * `[field] message`. Array positions are written in brackets whoever names the field
 * (`items.1.menuId` → `items[1].menuId`), so a client sees one spelling from validation and
 * from the rules alike.
 */
export const fieldPath = (field: string) => field.replace(/\.(\d+)(?=\.|\[|$)/g, '[$1]');
export const fieldDetail = (field: string, message: string) => `[${fieldPath(field)}] ${message}`;

export abstract class DomainError extends Error {
  /** The refusal without its field. */
  readonly reason: string;

  /** `message` is the whole text (it may name its field itself); see `field()` of each kind. */
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(field === undefined ? message : fieldDetail(field, message));
    this.reason = message;
    this.name = new.target.name;
  }
}

/** The request asks for something the rules refuse (a bad value, a reference to nothing, a state that forbids it). */
export class InvalidInput extends DomainError {
  static field(field: string, message: string): InvalidInput {
    return new InvalidInput(message, field);
  }
}

/** The record the request is about does not exist. */
export class NotFoundError extends DomainError {
  static field(field: string, message: string): NotFoundError {
    return new NotFoundError(message, field);
  }
}

/** The request collides with what is already recorded (a key used with another body, a state already moved on). */
export class ConflictError extends DomainError {
  static field(field: string, message: string): ConflictError {
    return new ConflictError(message, field);
  }
}

/** The contract's plan or settings do not allow it (coupons on a plan without them, a payment terminal link the settings turn off). */
export class ForbiddenError extends DomainError {
  static field(field: string, message: string): ForbiddenError {
    return new ForbiddenError(message, field);
  }
}

/** What can still be done to a record that refuses the operation asked for. */
export type Operation = 'read' | 'update' | 'delete';

/** The record refuses this operation whatever the request says (an imported reservation cannot be updated); `allowed` lists what it still takes. */
export class OperationRefused extends DomainError {
  constructor(
    message: string,
    readonly allowed: readonly Operation[],
    field?: string,
  ) {
    super(message, field);
  }

  static field(field: string, message: string, allowed: readonly Operation[]): OperationRefused {
    return new OperationRefused(message, allowed, field);
  }
}
