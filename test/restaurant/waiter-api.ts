import type { TestApp } from '../helpers/app.js';

/** `app.inject` against /{contractId}/waiter{path} (the waiter API, beside t.api's /pos) with the bearer token. */
export function waiterApi(t: TestApp, method: string, path: string, body?: unknown, token = t.token) {
  return t.app.inject({
    method: method as 'GET',
    url: `/${t.contractId}/waiter${path}`,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}
