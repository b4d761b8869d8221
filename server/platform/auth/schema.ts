import { z } from 'zod';

export const tokenParams = z.object({ contract_id: z.string() });

/** RFC 6749 §4.4 form body; client credentials may also come in the body (client_secret_post). */
export const tokenBody = z
  .object({
    grant_type: z.string().optional(),
    scope: z.string().optional(),
    client_id: z.string().optional().describe('client_secret_post; or backoffice-ui, the back-office UI\'s public client: no secret, grant_type=password only'),
    client_secret: z.string().optional(),
    username: z.string().optional(),
    password: z.string().optional(),
  })
  .optional();

export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});

/** OAuth errors are problem+json bodies that also carry RFC 6749's `error` member. */
export const oauthProblem = z.object({
  type: z.string(),
  title: z.string(),
  detail: z.string(),
  status: z.number().int(),
  error: z.string(),
  error_description: z.string(),
});

export type TokenResponse = z.infer<typeof tokenResponse>;
