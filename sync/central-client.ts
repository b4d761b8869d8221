import got from 'got';

/** Where a store reaches central, and as which node. */
export interface CentralAddress {
  centralUrl: string;
  contractId: string;
  node: number;
  secret: string;
}

export interface CentralAnswer {
  statusCode: number;
  body: string;
}

/**
 * One call to central's sync endpoints, as the agent and `link` both make it: HTTP Basic
 * `<node>:<secret>`, one whole-request timeout, no retry (the scheduler backs off) and no
 * redirect (a redirect could carry the node secret elsewhere). Throws only when no answer came.
 */
export async function callCentral(to: CentralAddress, method: 'GET' | 'POST', path: string, timeoutMs: number, body?: string): Promise<CentralAnswer> {
  const url = `${to.centralUrl}/sync/${encodeURIComponent(to.contractId)}/${path}`;
  const response = await got(url, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
    username: String(to.node),
    password: to.secret,
    timeout: { request: timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
  });
  return { statusCode: response.statusCode, body: response.body };
}

/** The `detail` of central's problem+json answer, or the start of whatever else it sent. */
export function problemDetail(answer: CentralAnswer): string {
  try {
    const parsed = JSON.parse(answer.body) as { detail?: unknown };
    if (typeof parsed.detail === 'string') return parsed.detail;
  } catch {
    // not JSON: a proxy's or another server's page
  }
  return answer.body.slice(0, 300);
}

/** Central's wall time against the middle of our request: the skew status and `link` show. */
export const clockSkew = (centralWallTime: number, sentAt: number, answeredAt: number): number => Math.round(centralWallTime - (sentAt + answeredAt) / 2);
