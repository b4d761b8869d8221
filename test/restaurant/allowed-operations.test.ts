import { describe, expect, it } from 'vitest';
import { toProblem } from '../../server/platform/http/errors.js';
import { assertDeletable, assertUpdatable } from '../../server/restaurant/reservations/allowed-operations.js';

/** The answer a refusal of allowed-operations.ts gets: its status, detail and Allow header. */
function answer(check: () => void) {
  try {
    check();
    return 'allowed';
  } catch (error) {
    const { problem, headers } = toProblem(error as Error);
    return { status: problem.status, detail: problem.detail, allow: headers.allow };
  }
}

const own = { reservation_code: null, reserved_from: 'pos-backoffice', table_use_id: null };
const imported = { reservation_code: 'EXT-9', reserved_from: 'external', table_use_id: null };
const importedDetail = '[reservation_id] reservation 5 was imported from external (reservationCode EXT-9) and cannot be updated';
const boundDelete = '[reservation_id] reservation 5 is bound to table use 7 and cannot be deleted';

describe('what a reservation still allows (spec 4.13, §7)', () => {
  it('updates only its own reservation, and cancels none that is seated', () => {
    expect(answer(() => assertUpdatable('5', own, { status: 'canceled' }))).toBe('allowed');
    expect(answer(() => assertUpdatable('5', imported, { note: 'x' }))).toEqual({ status: 405, detail: importedDetail, allow: 'GET, DELETE' });
    expect(answer(() => assertUpdatable('5', { ...imported, table_use_id: 7 }, {}))).toEqual({ status: 405, detail: importedDetail, allow: 'GET' });
    expect(answer(() => assertUpdatable('5', { ...own, table_use_id: 7 }, { status: 'canceled' }))).toEqual({
      status: 405,
      detail: '[status] reservation 5 is bound to table use 7 and cannot be canceled',
      allow: 'GET, PATCH',
    });
    expect(answer(() => assertUpdatable('5', { ...own, table_use_id: 7 }, { status: 'coming' }))).toBe('allowed');
  });

  it('deletes none that is seated', () => {
    expect(answer(() => assertDeletable('5', imported))).toBe('allowed');
    expect(answer(() => assertDeletable('5', { ...own, table_use_id: 7 }))).toEqual({ status: 405, detail: boundDelete, allow: 'GET, PATCH' });
    expect(answer(() => assertDeletable('5', { ...imported, table_use_id: 7 }))).toEqual({ status: 405, detail: boundDelete, allow: 'GET' });
  });
});
