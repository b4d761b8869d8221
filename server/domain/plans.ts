/** The contract plans the interface names (spec §1). */
export const PLANS = ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const isPlan = (value: string): value is Plan => (PLANS as readonly string[]).includes(value);
