import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from '../../../server/platform/http/logging.js';
import { makeTestApp, problem, type TestApp } from '../../helpers/app.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A real HTTP request on 127.0.0.1: the path goes out as written (inject normalizes `..`). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Writes the request in 64 KiB pieces, as a client on a slow link does, and reads only when
 * it has written everything (Python's requests, curl -T): a server that closes early
 * resets the connection under it.
 */
function writeAllThenRead(port: number, head: string, body: Buffer): Promise<{ writeError: string | null; response: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let writeError: string | null = null;
    let response = '';
    socket.pause();
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', (e: NodeJS.ErrnoException) => (writeError ??= e.code ?? e.message));
    socket.on('close', () => resolve({ writeError, response }));
    socket.write(head);
    let offset = 0;
    const next = () => {
      if (writeError || socket.destroyed) return;
      if (offset >= body.length) return void socket.resume();
      const piece = body.subarray(offset, offset + 65536);
      offset += piece.length;
      socket.write(piece, (error) => {
        if (error) writeError ??= (error as NodeJS.ErrnoException).code ?? error.message;
        else setTimeout(next, 1);
      });
    };
    next();
  });
}

/** The status, headers and JSON body of a raw HTTP/1.1 response. */
function parseRaw(response: string) {
  const [head, ...rest] = response.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head!.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: rest.join('\r\n') };
}

const expectProblem = (a: Answer, status: number) => {
  expect(a.status, a.body).toBe(status);
  expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(a.body);
  expect(body).toEqual({ type: 'about:blank', title: expect.any(String), status, detail: expect.any(String) });
  return body as { title: string; detail: string };
};

describe('hardening: every error is a problem, never a 500 for a client mistake', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await makeTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  describe('the docs static files (no token)', () => {
    it('a `..` path is a 403 problem (an encoded slash matches no file: 404)', async () => {
      const cases: [string, number][] = [
        ['/docs/static/../../package.json', 403],
        ['/docs/static/%2e%2e/%2e%2e/package.json', 403],
        ['/docs/static/..%2f..%2fpackage.json', 404],
      ];
      for (const [path, status] of cases) {
        const a = await get(port, path);
        expectProblem(a, status);
        expect(a.body).not.toContain('"dependencies"');
      }
    });

    it('a range beyond the file is a 416 problem with Content-Range', async () => {
      const a = await get(port, '/docs/static/swagger-ui.css', { range: 'bytes=99999999-' });
      const body = expectProblem(a, 416);
      expect(body.title).toBe('Range Not Satisfiable');
      expect(a.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
    });

    it('If-Match that matches nothing is a 412 problem', async () => {
      const body = expectProblem(await get(port, '/docs/static/swagger-ui.css', { 'if-match': '"nope"' }), 412);
      expect(body.title).toBe('Precondition Failed');
    });

    it('the file itself is still served', async () => {
      const a = await get(port, '/docs/static/swagger-ui.css');
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toMatch(/^text\/css/);
    });
  });

  describe("the router's and the HTTP parser's errors", () => {
    it('a bad percent-encoding is a 400 problem naming the path', async () => {
      for (const path of ['/x/pos/menus/%E0%A4%A', `/${'test-contract'}/pos/stores/%E0%A4%A`]) {
        const body = expectProblem(await get(port, path), 400);
        expect(body.detail).toBe(`[path] ${path} is not valid percent-encoded UTF-8`);
      }
    });

    it('a path segment over 100 characters is a 414 problem', async () => {
      const path = `/test-contract/pos/stores/${'1'.repeat(101)}`;
      const body = expectProblem(await get(port, path, { authorization: `Bearer ${t.token}` }), 414);
      expect(body).toEqual({ type: 'about:blank', title: 'URI Too Long', status: 414, detail: `[path] a path segment of ${path} is longer than 100 characters` });
      // 100 characters still reach the route, whose validation names the field.
      const ok = await t.api('GET', `/stores/${'1'.repeat(100)}`);
      expect(problem(ok, 400).detail).toBe('[store_id] must be 1 to 9 digits');
    });

    it('an over-long URL is a 431 problem (Node answers it before Fastify sees a request)', async () => {
      const body = expectProblem(await get(port, `/test-contract/pos/stores?x=${'a'.repeat(20000)}`), 431);
      expect(body.title).toBe('Request Header Fields Too Large');
    });

    it('a request that is not HTTP is a 400 problem', async () => {
      const raw = await new Promise<string>((resolve) => {
        const s = connect(port, '127.0.0.1');
        let out = '';
        s.on('data', (d) => (out += d.toString()));
        s.on('error', () => {});
        s.on('close', () => resolve(out));
        s.end('HELLO WORLD\r\n\r\n');
      });
      const a = parseRaw(raw);
      expect(a.status).toBe(400);
      expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(a.body)).toMatchObject({ status: 400, title: 'Bad Request' });
    });
  });

  describe('bodies', () => {
    it('a 2 MiB body gets its 413 problem, not a reset, even from a client that writes it all first', async () => {
      const body = Buffer.alloc(2 * 1024 * 1024, 'a');
      for (const framing of ['content-length', 'chunked'] as const) {
        const head =
          `POST /${t.contractId}/pos/stores HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.token}\r\n` +
          `Content-Type: application/json\r\n${framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`}\r\n\r\n`;
        const payload = framing === 'chunked' ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]) : body;
        const { writeError, response } = await writeAllThenRead(port, head, payload);
        expect(writeError, framing).toBeNull();
        const a = parseRaw(response);
        expect(a.status, framing).toBe(413);
        expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(a.body)).toEqual({ type: 'about:blank', title: 'Payload Too Large', status: 413, detail: 'Request body is too large' });
      }
    });

    it('10,000 unknown keys: the detail lists the first 20 and counts the rest', async () => {
      const body = Object.fromEntries(Array.from({ length: 10000 }, (_, i) => [`k${i}`, 1]));
      const res = await t.api('POST', '/stores', { storeName: 'a', ...body });
      const p = problem(res, 400);
      const listed = Array.from({ length: 20 }, (_, i) => `[k${i}] is not a known field`).join('; ');
      expect(p.detail).toBe(`${listed}; and 9980 more`);
      expect(res.body.length).toBeLessThan(2000);
    });

    it('20 problems are listed whole', async () => {
      const body = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 1]));
      const p = problem(await t.api('POST', '/stores', { storeName: 'a', ...body }), 400);
      expect(p.detail).toBe(Array.from({ length: 20 }, (_, i) => `[k${i}] is not a known field`).join('; '));
    });
  });

  describe('query parameters', () => {
    it('`fields=,` names no field: a 400, not every field', async () => {
      const detail = '[fields] names no field, only commas; list field names separated by commas (fields=a,b), or leave fields out for every field';
      expect(problem(await t.api('GET', '/categories?fields=,'), 400).detail).toBe(detail);
      expect(problem(await t.api('GET', '/categories/1?fields=,'), 400).detail).toBe(detail);
      expect(problem(await t.api('GET', '/categories?fields=%20,%20,'), 400).detail).toBe(detail);
      expect(problem(await t.api('GET', '/categories?fields=categoryId&fields=,'), 400).detail).toBe(detail);
      expect(problem(await t.api('GET', '/transactions?fields=,'), 400).detail).toBe(detail);
      // An empty value still asks for every field, and a trailing comma is still forgiven.
      expect((await t.api('GET', '/categories?fields=')).statusCode).toBe(200);
      expect((await t.api('GET', '/categories?fields=categoryId,')).statusCode).toBe(200);
    });
  });
});

describe('credentials in URLs are not logged', () => {
  it('redacts access_token, client_secret, password and their kind from the logged URL', async () => {
    const lines: string[] = [];
    const t = await makeTestApp({ logger: loggerOptions('info', { write: (line: string) => void lines.push(line) }) });
    await t.app.inject({ method: 'GET', url: `/${t.contractId}/pos/stores?access_token=${t.token}&limit=1` });
    await t.app.inject({ method: 'GET', url: `/app/${t.contractId}/token?client_secret=hunter2-secret&password=hunter3-pass&access%5Ftoken=hunter4-tok` });
    await t.close();
    const log = lines.join('');
    for (const secret of [t.token, 'hunter2-secret', 'hunter3-pass', 'hunter4-tok']) expect(log).not.toContain(secret);
    const urls = lines.map((l) => (JSON.parse(l) as { req?: { url: string } }).req?.url).filter(Boolean);
    expect(urls).toContain(`/${t.contractId}/pos/stores?access_token=[redacted]&limit=1`);
    expect(urls).toContain(`/app/${t.contractId}/token?client_secret=[redacted]&password=[redacted]&access%5Ftoken=[redacted]`);
  });

  it('redactUrl leaves other parameters and odd input alone', () => {
    expect(redactUrl('/a/pos/stores')).toBe('/a/pos/stores');
    expect(redactUrl('/a?limit=1&sort=storeId')).toBe('/a?limit=1&sort=storeId');
    expect(redactUrl('/a?Access_Token=x&token&%E0%A4=1&refresh_token=y')).toBe('/a?Access_Token=[redacted]&token&%E0%A4=1&refresh_token=[redacted]');
  });
});
