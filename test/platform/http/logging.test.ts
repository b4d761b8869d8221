import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../../server/platform/http/logging.js';
import { makeTestApp } from '../../helpers/app.js';

describe('logging', () => {
  it('logs requests with request ids and never a secret or token', async () => {
    const lines: string[] = [];
    const t = await makeTestApp({ logger: loggerOptions('debug', { write: (line: string) => void lines.push(line) }) });
    const { clientId, clientSecret } = t.createClient(t.contractId);
    const tokenRes = await t.app.inject({
      method: 'POST',
      url: `/app/${t.contractId}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'term-7-0001' },
      payload: `grant_type=client_credentials&client_id=${clientId}&client_secret=${clientSecret}`,
    });
    const accessToken = tokenRes.json().access_token as string;
    await t.api('GET', '/stores', undefined, accessToken);
    await t.api('GET', '/stores', undefined, 'wrong-token-value');
    await t.close();

    const log = lines.join('');
    expect(log).toContain('"reqId":"term-7-0001"');
    expect(log).toMatch(/"url":"\/test-contract\/pos\/stores"/);
    for (const secret of [clientSecret, accessToken, t.token, 'wrong-token-value']) expect(log).not.toContain(secret);
    expect(lines.every((line) => JSON.parse(line))).toBe(true);
  });
});
