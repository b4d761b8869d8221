import { describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, InvalidInput, NotFoundError, OperationRefused } from '../../../server/domain/errors.js';
import { toProblem } from '../../../server/platform/http/errors.js';
import { BadRequest, Conflict, Forbidden, MethodNotAllowed, NotFound } from '../../../server/platform/http/problem.js';

describe("the rules' typed errors, answered by the one error handler", () => {
  it('answers each kind with the status, title, detail and headers of the HTTP problem it stands for', () => {
    const cases = [
      [InvalidInput.field('items.1.menuId', 'menu 9 does not exist'), BadRequest.field('items.1.menuId', 'menu 9 does not exist')],
      [new InvalidInput('[storeId] store 12 does not exist'), new BadRequest('[storeId] store 12 does not exist')],
      [ForbiddenError.field('coupons', "the contract's plan cannot register coupons"), new Forbidden("[coupons] the contract's plan cannot register coupons")],
      [NotFoundError.field('customer_id', 'customer 999 does not exist'), NotFound.field('customer_id', 'customer 999 does not exist')],
      [ConflictError.field('Idempotency-Key', 'was used for another body'), new Conflict('[Idempotency-Key] was used for another body')],
      [new OperationRefused('[reservation_id] imported', ['read', 'delete']), new MethodNotAllowed('[reservation_id] imported', 'GET, DELETE')],
      [OperationRefused.field('status', 'bound', ['read', 'update']), new MethodNotAllowed('[status] bound', 'GET, PATCH')],
    ] as const;
    for (const [domain, http] of cases) expect(toProblem(domain)).toEqual(toProblem(http));
  });

  it('spells the answer exactly', () => {
    expect(toProblem(InvalidInput.field('details.0.price', 'must not be negative'))).toEqual({
      problem: { type: 'about:blank', title: 'Bad Request', status: 400, detail: '[details[0].price] must not be negative' },
      headers: {},
      extra: {},
    });
    expect(toProblem(new OperationRefused('[reservation_id] reservation 5 is bound to table use 7 and cannot be deleted', ['read']))).toEqual({
      problem: { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: '[reservation_id] reservation 5 is bound to table use 7 and cannot be deleted' },
      headers: { allow: 'GET' },
      extra: {},
    });
  });

  it('keeps the field and the reason apart for callers outside HTTP', () => {
    const error = InvalidInput.field('sumDate', 'store 1 is already closed for 2024-05-01');
    expect([error.field, error.reason, error.message]).toEqual(['sumDate', 'store 1 is already closed for 2024-05-01', '[sumDate] store 1 is already closed for 2024-05-01']);
    expect(error.name).toBe('InvalidInput');
  });
});
