import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A load balancer for tests (issue 24): an HTTP server on 127.0.0.1 that sends each request to the
 * next of its targets in turn (round robin, whatever the path), streaming the body both ways.
 * A target that cannot be reached, or that drops the connection before its answer's head, gives a
 * 502 (problem+json), as a real balancer without retries does; one that drops it in the middle of
 * the answer's body cuts the client's connection. No retry: what a store makes of a 502 is the
 * store's business. The test may replace a target (`targets[i] = url`), see what is in flight,
 * and take requests out of the stream (`capture`): kept whole, answered 502, never forwarded.
 */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The targets' base URLs (`http://127.0.0.1:<port>`), in turn; may be changed while running. */
  targets: string[];
  /** Requests sent to target `i` whose answer has not finished, whose path starts with `prefix`. */
  inFlight(i: number, prefix?: string): number;
  /**
   * The next `count` requests whose path starts with `prefix`, kept (method, path, headers, body)
   * and answered 502 instead of being forwarded; resolves once all are in.
   */
  capture(prefix: string, count?: number): Promise<CapturedRequest[]>;
  /** Per target: requests sent, 502s given, requests cut after the head was forwarded. */
  stats(): { sent: number[]; badGateway: number[]; cut: number[] };
  close(): Promise<void>;
}

export interface CapturedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export async function startRoundRobinProxy(targets: string[] = []): Promise<RoundRobinProxy> {
  const list = [...targets];
  let next = 0;
  const active = new Set<{ target: number; path: string }>();
  const sent: number[] = [];
  const badGateway: number[] = [];
  const cut: number[] = [];
  const bump = (counter: number[], i: number) => (counter[i] = (counter[i] ?? 0) + 1);
  // One pool for the upstream connections: a killed target's sockets fail and are dropped.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<Socket>();
  const captures: { prefix: string; left: number; taken: CapturedRequest[]; done: (r: CapturedRequest[]) => void }[] = [];
  const badGatewayBody = (detail: string) => JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const capture = captures.find((c) => c.left > 0 && (req.url ?? '').startsWith(c.prefix));
    if (capture) {
      capture.left--;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        capture.taken.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers, body: Buffer.concat(chunks) });
        res.writeHead(502, { 'content-type': 'application/problem+json' }).end(badGatewayBody('captured by the test'));
        if (capture.left === 0) {
          captures.splice(captures.indexOf(capture), 1);
          capture.done(capture.taken);
        }
      });
      return;
    }
    if (list.length === 0) {
      req.resume();
      res.writeHead(502, { 'content-type': 'application/problem+json' }).end(badGatewayBody('no targets'));
      return;
    }
    const i = next++ % list.length;
    const target = new URL(list[i]!);
    const entry = { target: i, path: req.url ?? '/' };
    active.add(entry);
    bump(sent, i);
    let done = false;
    const finish = () => {
      done = true;
      active.delete(entry);
    };
    const upstream = httpRequest(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('aborted', () => {
          bump(cut, i);
          finish();
          res.destroy();
        });
        answer.on('error', () => {
          if (!done) bump(cut, i);
          finish();
          res.destroy();
        });
        res.on('finish', finish);
      },
    );
    upstream.on('error', (error) => {
      if (done) return;
      if (res.headersSent) {
        bump(cut, i);
        finish();
        res.destroy();
        return;
      }
      bump(badGateway, i);
      finish();
      req.resume();
      const body = badGatewayBody(`${target.host}: ${(error as NodeJS.ErrnoException).code ?? error.message}`);
      res.writeHead(502, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), connection: 'close' });
      res.end(body);
    });
    // The client gave up (its timeout): so does the request to the target.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
      finish();
    });
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    targets: list,
    capture: (prefix, count = 1) => new Promise((done) => captures.push({ prefix, left: count, taken: [], done })),
    inFlight: (i, prefix = '') => [...active].filter((e) => e.target === i && e.path.startsWith(prefix)).length,
    stats: () => ({
      sent: list.map((_, i) => sent[i] ?? 0),
      badGateway: list.map((_, i) => badGateway[i] ?? 0),
      cut: list.map((_, i) => cut[i] ?? 0),
    }),
    async close() {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
