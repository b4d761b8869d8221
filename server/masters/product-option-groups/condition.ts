import { InvalidInput } from '../../domain/errors.js';

/**
 * The condition of a product option group (the platform's conditionId): how many of its
 * options a sale line must take. 0 none (max and min unset), 1 over the whole group, 2 per
 * category. The restaurant API shows the same condition as `rule` (null, all, category).
 */
export const CONDITION_IDS = ['0', '1', '2'] as const;
export type ConditionId = (typeof CONDITION_IDS)[number];

export interface OptionCondition {
  conditionId: ConditionId;
  max: number | null;
  min: number | null;
}

export type SentCondition = Partial<{ conditionId: ConditionId; max: number; min: number }>;

/**
 * The condition after a registration (`current` null) or an update: conditionId 0 takes no max
 * or min (an update to 0 clears them); 1 and 2 need both, sent or kept from a condition that
 * had them, and min may not exceed max. The detail names the field to correct.
 */
export function conditionAfter(current: OptionCondition | null, sent: SentCondition): OptionCondition {
  const conditionId = sent.conditionId ?? current?.conditionId ?? '0';
  if (conditionId === '0') {
    for (const field of ['max', 'min'] as const) {
      if (sent[field] !== undefined) throw InvalidInput.field(field, 'must not be given when conditionId is 0 (no condition)');
    }
    return { conditionId, max: null, min: null };
  }
  const kept = current?.conditionId === '0' ? null : current;
  const max = sent.max ?? kept?.max ?? null;
  const min = sent.min ?? kept?.min ?? null;
  if (max === null) throw InvalidInput.field('max', `is required when conditionId is ${conditionId}`);
  if (min === null) throw InvalidInput.field('min', `is required when conditionId is ${conditionId}`);
  if (min > max) throw InvalidInput.field('min', `must not be greater than max (${max})`);
  return { conditionId, max, min };
}
