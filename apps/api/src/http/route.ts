import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ErrorBody, findInputProblem } from '@ampere/domain/contract/common';
import type { Database } from '../db/schema.ts';
import type { RateLimitKind } from '../config.ts';
import { AppError } from './errors.ts';
import { type IdempotencyStore, answerOnce, idempotencyKeyOf, storedError } from './idempotency.ts';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import { type RenterFor, type RouteAuth, authenticate } from './session.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * A response body already written as JSON, for the few hot routes that assemble it from cached
 * pieces. Whoever builds one owns matching the route's response schema (its tests check that).
 */
export class PreSerialized {
  constructor(readonly json: string | Buffer) {}
}

export interface RouteSpec<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
  A extends RouteAuth = 'none',
> {
  method: Method;
  url: string;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  status?: number;
  /**
   * Safe to retry: a request with an Idempotency-Key header (1–200 characters, per signed-in
   * renter) runs the handler at most once, inside the transaction that stores its answer, and
   * every request with that key gets that answer (a 4xx included); the same key with another
   * body or path is a 422. Needs installIdempotency.
   */
  idempotent?: boolean;
  /** The request limit the route is held to (decision 038); unset: writes get 'writes', reads none. */
  limit?: RateLimitKind | false;
  /** More of the route's Fastify config, read by hooks (the console's action, for one). */
  config?: FastifyContextConfig;
  /** The largest body the route takes, in bytes, when smaller than the app's. */
  bodyLimit?: number;
  /**
   * Who the route lets in, checked by a hook before the handler runs (after the input is parsed,
   * so a bad field is still a 400 first): 'renter' needs a live session (a 401 otherwise) and
   * hands the handler `renter`; 'optional' hands it the renter or null; unset, nobody is looked up.
   * Needs installSessions.
   */
  auth?: A;
  handler: (
    input: {
      params: z.output<P>;
      query: z.output<Q>;
      body: z.output<B>;
      /** The signed-in renter, by `auth`. */
      renter: RenterFor<A>;
      /**
       * Idempotent routes only: where the handler's writes go — the transaction that also stores
       * the answer when a key was sent, else the app's database. A service's `transact` joins it.
       */
      db?: Kysely<Database>;
    },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<z.input<R> | PreSerialized> | z.input<R> | PreSerialized;
}

interface DocumentedRoute {
  method: Method;
  url: string;
  summary: string;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  status: number;
  idempotent?: boolean;
}

/** Routes registered through `route()`, for the OpenAPI document. */
export const documentedRoutes: DocumentedRoute[] = [];

/**
 * Refuses, before any route sees it, a request whose query, path parameters or JSON body holds
 * what no field may hold, whatever its schema says: a NUL or an unpaired surrogate in any string
 * or key (the database cannot store them as text), or a body nested deeper than MAX_INPUT_DEPTH.
 * One check for every route, the ones not registered through `route()` included (decision 017).
 * A 400 naming the field.
 */
export function installInputGuard(app: FastifyInstance): void {
  // A plain callback hook: no promise per request.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [where, value] of [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const problem = findInputProblem(value);
      if (!problem) continue;
      const field = problem.path || (where === 'body' ? 'body' : where);
      done(new AppError('INVALID_INPUT', `${field} ${problem.message}`, field));
      return;
    }
    done();
  });
}

/** Parses a request's params, query or body; a bad value is a 400 naming the field. Routes outside `route()` call it too. */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: 'path' | 'query' | 'body',
): z.output<T> {
  // reportInput: zod 4 says which value was wrong only when asked, so a wrong type is not mistaken for a missing field.
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const message =
    issue.code === 'invalid_type' && issue.input === undefined
      ? `${field} is required`
      : issue.code === 'unrecognized_keys'
        ? `Unknown ${where} field: ${issue.keys.join(', ')}`
        : field
          ? `${field} ${issue.message}`
          : issue.message;
  throw new AppError('INVALID_INPUT', message, field || undefined);
}

/** Each request's parsed input, renter and Idempotency-Key, from the route's preHandler to its handler. */
const parsedInputs = new WeakMap<FastifyRequest, unknown>();

/**
 * Registers a route whose params, query and body are parsed by zod (a bad value is a 400 naming
 * the field) and whose response is passed through its zod schema, which drops anything the
 * schema does not list.
 */
export function route<
  P extends z.ZodType = z.ZodObject,
  Q extends z.ZodType = z.ZodObject,
  B extends z.ZodType = z.ZodObject,
  R extends z.ZodType = z.ZodType,
  A extends RouteAuth = 'none',
>(app: FastifyInstance, spec: RouteSpec<P, Q, B, R, A>): void {
  const status = spec.status ?? 200;
  documentedRoutes.push({ ...spec, status });
  let store: IdempotencyStore | undefined;
  if (spec.idempotent) {
    store = app.idempotency;
    if (!store)
      throw new Error(`${spec.method} ${spec.url} is idempotent: call installIdempotency before registering it.`);
  }
  app.route({
    method: spec.method,
    url: spec.url,
    config: { ...spec.config, ...(spec.limit !== undefined ? { limit: spec.limit } : {}) },
    ...(spec.bodyLimit !== undefined ? { bodyLimit: spec.bodyLimit } : {}),
    // Fastify compiles this into a serializer that writes only the listed properties, so internal
    // columns never leave the server, and it is several times faster than parsing with zod.
    schema: { response: { [status]: serializerSchema(spec.response) } },
    // The input is parsed, then the session checked, as hooks: the handler runs only on both.
    preHandler: async (request) => {
      const input = {
        params: spec.params ? parseOrThrow(spec.params, request.params, 'path') : ({} as z.output<P>),
        query: spec.query ? parseOrThrow(spec.query, request.query, 'query') : ({} as z.output<Q>),
        body: spec.body ? parseOrThrow(spec.body, request.body, 'body') : ({} as z.output<B>),
        db: store?.db,
      };
      // The Idempotency-Key is input too: a malformed one is a 400 before the session is asked for.
      const key = store ? idempotencyKeyOf(request) : null;
      const renter: RenterFor<A> = await authenticate(request, spec.auth ?? ('none' as A));
      parsedInputs.set(request, { ...input, renter, key });
    },
    handler: async (request, reply) => {
      const { key, ...input } = parsedInputs.get(request) as Parameters<typeof spec.handler>[0] & {
        key: string | null;
      };
      if (store && key !== null) {
        const outcome = await answerOnce(store, request, key, input.body, async (trx) => {
          const result = await spec.handler({ ...input, db: trx }, request, reply);
          // Stored as the client sees it: what the response schema lets out.
          return {
            statusCode: status,
            body: result instanceof PreSerialized ? JSON.parse(result.json.toString()) : spec.response.parse(result),
          };
        });
        if (outcome.statusCode >= 400) throw storedError(outcome.json);
        reply.status(status).type('application/json; charset=utf-8');
        return outcome.json;
      }
      const result = await spec.handler(input, request, reply);
      reply.status(status);
      if (result instanceof PreSerialized) {
        // A string or bytes with a JSON content type are sent as they are, without the schema serializer.
        reply.type('application/json; charset=utf-8');
        return result.json;
      }
      return result;
    },
  });
}

function serializerSchema(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete js.$schema;
  return openObjects(js) as Record<string, unknown>;
}

/**
 * The serializer writes only the properties a schema lists, whatever else a value carries. But a
 * nullable object becomes `anyOf: [object, null]`, and to pick a branch the serializer validates
 * the value against each: with `additionalProperties: false` a row carrying one field more than
 * the contract lists (a receipt's add-on with its id and amount) matched neither branch and the
 * response failed with a 500. Leaving the objects open keeps the output the same and the choice
 * of branch right.
 */
function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = openObjects(value);
  }
  return out;
}

function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
  }));
}

/** The header an idempotent route honours, as the document describes it. */
const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "Makes the request safe to retry: every request from the same renter with this key gets the first one's answer, and the work is done once. The same key with another path or body is refused (422). Keys are kept for 24 hours.",
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};

export function openApiDocument(info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const error = jsonSchema(ErrorBody, 'output');
  for (const r of documentedRoutes) {
    const p = (paths[toOpenApiPath(r.url)] ??= {});
    p[r.method.toLowerCase()] = {
      summary: r.summary,
      tags: [r.tag],
      parameters: [
        ...parametersOf(r.params, 'path'),
        ...parametersOf(r.query, 'query'),
        ...(r.idempotent ? [IDEMPOTENCY_PARAMETER] : []),
      ],
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } } }
        : {}),
      responses: {
        [String(r.status)]: {
          description: 'Success',
          content: { 'application/json': { schema: jsonSchema(r.response, 'output') } },
        },
        '4XX': {
          description: 'The request was refused; the message names what is wrong.',
          content: { 'application/json': { schema: error } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: { securitySchemes: { [SESSION_HEADER]: SESSION_SCHEME } },
    // The session header goes with every call; routes that act for a renter answer 401 without a live one.
    security: [{ [SESSION_HEADER]: [] }, {}],
  };
}

/** How a call says who is signed in (spec 6), as the document describes it. */
const SESSION_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: SESSION_HEADER,
  description: `The session token that signing in (POST /api/v1/auth/sms/verify) returns, sent as the ${SESSION_HEADER} header on every call to the API. Calls that act for a renter answer 401 when it is missing, expired or revoked; a session lasts a day from its last use.`,
};

/**
 * Registers routes that need the exact bytes of their body (signed webhooks: the signature covers
 * the raw body) in their own plugin scope, where every body is read as a Buffer; every other route
 * still parses JSON as usual. `request.body` is the Buffer (empty when there was none).
 */
export function rawBodyRoutes(app: FastifyInstance, register: (scope: FastifyInstance) => void): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    register(scope);
  });
}

/** The raw body and one header of a request registered through rawBodyRoutes. */
export function rawBodyAndHeader(request: FastifyRequest, header: string): { raw: Buffer; header: string | undefined } {
  const value = request.headers[header];
  return {
    raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
    header: Array.isArray(value) ? value[0] : value,
  };
}
