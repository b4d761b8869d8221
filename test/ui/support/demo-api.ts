import type { UiServer } from './server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface DemoApi {
  /** Answers the JSON body, or throws with the status and body when it is not a 2xx. */
  call(method: string, path: string, body?: unknown): Promise<Json>;
  /** The raw answer (for a test that expects a refusal). */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
}

/**
 * The demo contract's API with an app token (client credentials of the demo API client `serve
 * --demo` prints): what a register would do, so a browser test can set the scene and check the
 * screen against the API's own figures. Paths are relative to `/{contract}/pos`.
 */
export async function demoApi(server: UiServer, contractId: string): Promise<DemoApi> {
  const c = server.contract(contractId);
  const grant = await fetch(c.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (!grant.ok) throw new Error(`token: ${grant.status} ${await grant.text()}`);
  const token = ((await grant.json()) as { access_token: string }).access_token;
  const raw = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/${contractId}/pos${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : null };
  };
  return {
    raw,
    async call(method, path, body) {
      const r = await raw(method, path, body);
      if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
  };
}

/** The inclusive sale-time range of a date in Asia/Tokyo (the demo contracts' zone), as the screens ask for it. */
export function tokyoDay(date: string): { from: string; to: string } {
  const start = Date.parse(`${date}T00:00:00+09:00`);
  return { from: new Date(start).toISOString(), to: new Date(start + 24 * 3600 * 1000 - 1).toISOString() };
}

/** Today's date in Asia/Tokyo. */
export const tokyoToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());

/** Polls `check` every 200 ms for at most `ms` (bounded: a broken link fails the test instead of hanging it). */
export async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}
