import type { Result } from '../../../api/client';

/**
 * The stocktaking reads take `fields` (a subset of the record), so the API types their answers
 * with every field optional; these screens never send it, and without it every field is answered.
 */
export const whole = <T,>(request: Promise<Result<Partial<T>>>) => request as Promise<Result<T>>;
export const wholeRows = <T,>(request: Promise<Result<Partial<T>[]>>) => request as Promise<Result<T[]>>;
