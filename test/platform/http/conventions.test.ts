import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../helpers/modules.js';
import { makeTestApp, problem, type TestApp } from '../../helpers/app.js';

describe('HTTP conventions', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const post = (payload: string | Buffer, contentType: string) =>
    t.app.inject({
      method: 'POST',
      url: `/${t.contractId}/pos/stores`,
      headers: { authorization: `Bearer ${t.token}`, 'content-type': contentType },
      payload,
    });

  it('400 problem for malformed JSON', async () => {
    const body = problem(await post('{"storeName": ', 'application/json'), 400);
    expect(body).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 });
    expect(body.detail).toMatch(/JSON/);
  });

  it('413 problem for a body over 1 MiB', async () => {
    const big = JSON.stringify({ storeName: 'x'.repeat(1024 * 1024) });
    const body = problem(await post(big, 'application/json'), 413);
    expect(body).toMatchObject({ title: 'Payload Too Large', status: 413 });
  });

  it('415 problem for a content type other than JSON', async () => {
    const body = problem(await post('storeName=x', 'text/plain'), 415);
    expect(body).toMatchObject({ title: 'Unsupported Media Type', status: 415 });
  });

  it('an empty JSON body is no body: 400 naming the body, not a parse error', async () => {
    const body = problem(await post('', 'application/json'), 400);
    expect(body.detail).toBe('[body] is required');
  });

  it('404 problem for an unknown route, before any authentication', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nowhere?x=1' });
    expect(problem(res, 404)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'no route GET /nowhere' });
  });

  it('an unknown query parameter is a 400 naming it, also on routes that take none', async () => {
    const store = (await t.api('POST', '/stores', { storeName: 'Shop' })).json().storeId;
    for (const path of [`/stores/${store}?verbose=1`, '/customer_group_sections?verbose=1', `/terminals?verbose=1`]) {
      expect(problem(await t.api('GET', path), 400).detail, path).toBe('[verbose] is not a known field');
    }
  });

  it('a JSON value where an object is expected names the body', async () => {
    expect(problem(await post('[1,2]', 'application/json'), 400).detail).toMatch(/^\[body\]/);
    expect(problem(await post('"text"', 'application/json'), 400).detail).toMatch(/^\[body\]/);
  });

  it('ids and numbers are strings; date-times carry the contract zone offset', async () => {
    const store = (await t.api('POST', '/stores', { storeName: 'Zone' })).json();
    expect(typeof store.storeId).toBe('string');
    expect(store.insDateTime).toBe('2026-11-22T10:00:00+09:00');
  });
});

describe('unexpected failures', () => {
  it('become a 500 problem without a stack trace or the error message', async () => {
    const t = await makeTestApp();
    const app = await buildApp(t.deps);
    app.get('/boom', async () => {
      throw new Error('secret internals at /work/main/server/x.ts:12');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    const body = problem(res, 500);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'the server could not complete the request; it has been logged',
    });
    expect(res.body).not.toMatch(/secret internals|\.ts:|at /);
    await app.close();
    await t.close();
  });
});
