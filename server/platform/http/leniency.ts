import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

/**
 * What public clients of the platform send that costs nothing to accept (issue 16):
 * - a JSON body without `Content-Type` (a PHP package posts its sales that way) is read as JSON;
 * - range filters in the older underscore spelling (`sum_date_from`) are read as the platform's
 *   `sum_date-from` when the route has that filter;
 * - a date-time in a query whose `+` was not percent-encoded (`…T00:00:00 09:00`) keeps its `+`.
 */
export function registerPlatformLeniency(api: FastifyInstance): void {
  api.addHook('onRequest', async (request) => {
    const { headers } = request;
    const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
    if (hasBody && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  });

  api.addHook('preValidation', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || typeof query !== 'object') return;
    const keys = queryKeys(request.routeOptions.schema?.querystring as z.ZodType | undefined);
    for (const key of Object.keys(query)) {
      const value = query[key];
      if (typeof value === 'string' && UNENCODED_PLUS.test(value)) query[key] = value.replace(UNENCODED_PLUS, '$1+$3');
      const m = /^(.+)_(from|to)$/.exec(key);
      const dashed = m && `${m[1]}-${m[2]}`;
      if (dashed && keys.has(dashed) && !keys.has(key) && !(dashed in query)) {
        query[dashed] = query[key];
        delete query[key];
      }
    }
  });
}

const UNENCODED_PLUS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?) (\d{2}:\d{2})$/;

const keysBySchema = new WeakMap<object, Set<string>>();

/** The top-level keys of a route's querystring schema (through refinements and pipes). */
function queryKeys(schema: z.ZodType | undefined): Set<string> {
  if (!schema) return new Set();
  let keys = keysBySchema.get(schema);
  if (!keys) {
    let node: unknown = schema;
    // zod 4: a transformed or piped object keeps the object in `in`; a refined one is the object itself.
    while (node && typeof node === 'object' && !('shape' in node) && 'in' in node) node = (node as { in: unknown }).in;
    const shape = (node as { shape?: Record<string, unknown> } | undefined)?.shape;
    keys = new Set(shape ? Object.keys(shape) : []);
    keysBySchema.set(schema, keys);
  }
  return keys;
}
