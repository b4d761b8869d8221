import createClient, { type Client } from 'openapi-fetch';
import { useMemo } from 'react';
import { useSession } from '../session';
import { networkProblem, problemView, type ProblemView } from './problem';
import type { paths } from './schema';

/**
 * The typed API client: every path, parameter and body comes from schema.d.ts, generated from
 * the server's /openapi.json (`npm run ui:types`), so no request or response type is written
 * by hand. The UI is served by the API server itself, so the base URL is the page's origin.
 */
export type Api = Client<paths>;
export type { paths };

/** The back-office UI's public OAuth client (server/resources/auth/ui-client.ts): no secret, password grant only. */
export const UI_CLIENT_ID = 'backoffice-ui';

export function createApi(options: { token?: string | undefined; onUnauthorized?: (() => void) | undefined; baseUrl?: string } = {}): Api {
  const api = createClient<paths>({ baseUrl: options.baseUrl ?? window.location.origin });
  api.use({
    onRequest({ request }) {
      if (options.token) request.headers.set('authorization', `Bearer ${options.token}`);
      return request;
    },
    onResponse({ response }) {
      // An expired or revoked token: back to the login, saying why.
      if (response.status === 401 && options.token) options.onUnauthorized?.();
      return response;
    },
  });
  return api;
}

/**
 * The client for the logged-in staff member, and `contract` to spread into path params:
 * `api.GET('/{contract_id}/pos/stores', { params: { path: contract } })`,
 * `api.PATCH('/{contract_id}/pos/staffs/{staff_id}', { params: { path: { ...contract, staff_id } }, body })`.
 */
export function useApi(): { api: Api; contract: { contract_id: string } } {
  const { session, logout } = useSession();
  const token = session?.token;
  const contractId = session?.contractId ?? '';
  return useMemo(
    () => ({ api: createApi({ token, onUnauthorized: () => logout('expired') }), contract: { contract_id: contractId } }),
    [token, contractId, logout],
  );
}

export type Result<D> = { ok: true; data: D; response: Response } | { ok: false; problem: ProblemView; response?: Response };

/**
 * Awaits an openapi-fetch call and folds its three outcomes (data, problem+json, network failure)
 * into one result: `const r = await call(api.GET(...)); if (!r.ok) setProblem(r.problem);`.
 */
export async function call<D>(request: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<Result<D>> {
  try {
    const { data, error, response } = await request;
    if (response.ok) return { ok: true, data: data as D, response };
    return { ok: false, problem: problemView(error, response.status), response };
  } catch (error) {
    return { ok: false, problem: networkProblem(error) };
  }
}

export interface TokenGrant {
  access_token: string;
  expires_in: number;
  scope: string;
}

/** The password grant with the UI's public client (RFC 6749 §4.3): a staff code and a password, no client secret. */
export function requestUserToken(contractId: string, username: string, password: string): Promise<Result<TokenGrant>> {
  const api = createApi();
  return call(
    api.POST('/app/{contract_id}/token', {
      params: { path: { contract_id: contractId } },
      body: { grant_type: 'password', client_id: UI_CLIENT_ID, username, password },
      // The token endpoint takes an OAuth form body.
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  );
}

/** What GET /ui/config.json tells the login: the contracts on this server. */
export interface UiConfig {
  version: string;
  contracts: Array<{ id: string; name: string; plan: string; timeZone: string }>;
}

export async function loadUiConfig(): Promise<Result<UiConfig>> {
  try {
    const response = await fetch(new URL('config.json', document.baseURI), { headers: { accept: 'application/json' } });
    const body: unknown = await response.json().catch(() => null);
    return response.ok ? { ok: true, data: body as UiConfig, response } : { ok: false, problem: problemView(body, response.status), response };
  } catch (error) {
    return { ok: false, problem: networkProblem(error) };
  }
}
