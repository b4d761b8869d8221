import { z } from 'zod';
import { CONTRACT_ID } from '../../cli/args.js';
import { PLANS } from '../../domain/plans.js';
import { isValidTimeZone } from '../../domain/time.js';
import { halfWidthCode, name, oneOf } from '../http/fields.js';
import { passwordProblem, PASSWORD_MAX, PASSWORD_MIN } from '../auth/password.js';
import { createStaffBody, STAFF_LIMITS } from '../../masters/staffs/schema.js';
import { createTerminalBody } from '../../masters/terminals/schema.js';

/** The zone a new contract gets unless another is chosen (as `contract create`). */
export const DEFAULT_TIME_ZONE = 'Asia/Tokyo';

const contractId = z.string().regex(CONTRACT_ID, 'must be 1 to 64 letters, digits, _ or -, starting with a letter or digit');

/** (a) Connect to head office: what `pos-backoffice link` takes. */
export const headOfficeBody = z.strictObject({
  centralUrl: z.string().min(1, 'is required').max(2000, 'must be at most 2000 characters').describe("head office's address, e.g. https://hq.example"),
  contractId,
  node: z
    .string()
    .regex(/^[0-9]{1,3}$/, 'must be a node number from 1 to 999')
    .refine((n) => Number(n) >= 1, 'must be a node number from 1 to 999')
    .describe('the node number head office gave this store (pos-backoffice node add)'),
  secret: z.string().min(1, 'is required').max(200, 'must be at most 200 characters').describe('the node secret head office gave with it (nsec_…)'),
  insecure: z.boolean().optional().describe('allow plain http to a public address (link --insecure)'),
});

const timeZone = z
  .string()
  .refine(isValidTimeZone, 'is not a known IANA time zone')
  .describe(`IANA time zone, default ${DEFAULT_TIME_ZONE}`);

/** (b) A shop on its own: the contract, its first store, staff member, register and API client. */
export const shopBody = z.strictObject({
  contractId,
  contractName: name(85),
  plan: oneOf(PLANS),
  timeZone: timeZone.optional(),
  storeName: name(85),
  staffName: createStaffBody.shape.staffName,
  staffCode: halfWidthCode(STAFF_LIMITS.staffCode).describe('the username of the staff login'),
  password: z
    .string()
    .superRefine((p, ctx) => {
      const problem = passwordProblem(p);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
  terminalName: createTerminalBody.shape.terminalName,
});

export type HeadOfficeBody = z.infer<typeof headOfficeBody>;
export type ShopBody = z.infer<typeof shopBody>;

const firstPull = z
  .object({
    contractId: z.string(),
    contractName: z.string(),
    centralUrl: z.string(),
    node: z.number().int(),
    online: z.boolean(),
    lastPullAt: z.string().nullable(),
    caughtUp: z.boolean().describe('a pull found nothing more at head office: every master is here'),
    lastError: z.string().nullable(),
    received: z.object({ stores: z.number().int(), staffs: z.number().int(), staffLogins: z.number().int().describe('staff who can log in'), products: z.number().int() }),
  })
  .meta({ id: 'SetupFirstPull' });

export const setupState = z
  .object({
    needed: z.boolean().describe('no contract yet: the setup screen is shown instead of the login'),
    plans: z.array(z.enum(PLANS)),
    defaultTimeZone: z.string(),
    firstPull: firstPull.nullable().describe("this store's link to head office and how far its first pull of masters has come; null when not linked"),
  })
  .meta({ id: 'SetupState' });

export const headOfficeLinked = z
  .object({
    contract: z.object({ contractId: z.string(), name: z.string(), plan: z.enum(PLANS), timeZone: z.string() }),
    node: z.number().int(),
    clockSkewMs: z.number().int(),
    warning: z.string().optional(),
  })
  .meta({ id: 'SetupHeadOfficeLinked' });

export const shopCreated = z
  .object({
    contract: z.object({ contractId: z.string(), name: z.string(), plan: z.enum(PLANS), timeZone: z.string() }),
    storeId: z.string(),
    staffId: z.string(),
    staffCode: z.string(),
    terminalId: z.string(),
    client: z.object({
      clientId: z.string(),
      clientSecret: z.string().describe('shown only in this answer'),
      scopes: z.array(z.string()),
    }),
    tokenPath: z.string().describe('/app/{contract_id}/token'),
    basePath: z.string().describe('/{contract_id}/pos'),
  })
  .meta({ id: 'SetupShopCreated' });
