import type { components } from '../../api/schema';

export type SetupState = components['schemas']['SetupState'];
export type FirstPullState = components['schemas']['SetupFirstPull'];
export type HeadOfficeLinked = components['schemas']['SetupHeadOfficeLinked'];
export type ShopCreated = components['schemas']['SetupShopCreated'];
export type Plan = SetupState['plans'][number];
