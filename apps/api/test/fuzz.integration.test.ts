import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startedTrip } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

/**
 * Schema-driven fuzzing of the whole API (decision 017): the routes come from the app's own
 * OpenAPI document; every route gets bad path parameters, query values and bodies, signed out and
 * signed in. Nothing may answer 5xx, the server must stay healthy, and another renter's data must
 * not change. Reproducible: the random choices come from a seeded generator. With two engines,
 * each sends every other request of the one list (decision 078): every request is sent once a run.
 */

const SEED = 20261124;

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    sample: <T>(xs: readonly T[], n: number): T[] => {
      const copy = [...xs];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, n);
    },
  };
}

const nested = (depth: number, leaf: unknown, asObject: boolean): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
};

/** Values no field should choke on, as JSON values inside a body. */
const BAD_JSON_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  'NUL\u0000',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '\ud83d',
  'x'.repeat(70_000),
  '',
  '   ',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '0000-01-01T00:00:00+00:00',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '1899-12-31',
  '9999-12-31',
  '2147483648',
  '-1',
  '1e309',
  'NaN',
  "' or 1=1 --",
  '🚗'.repeat(30),
  '\u202e\ufeff',
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53 + 2,
  2 ** 63,
  -1,
  0,
  -0,
  1.5,
  1e308,
  -1e308,
  1e-320,
  true,
  false,
  null,
  [],
  {},
  ['\u0000'],
  { '\u0000': 1 },
  { '\ud800': 'x' },
  nested(40, 1, false),
  nested(40, 'x', true),
  Array.from({ length: 1000 }, (_, i) => i),
];

/** Raw query or path values, already percent-encoded (so invalid UTF-8 can be sent). */
const BAD_URL_VALUES: string[] = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%ED%B0%80',
  '%C0%80',
  '%FF',
  '%',
  '%zz',
  '2147483648',
  '2147483647',
  '4294967296',
  '9223372036854775808',
  '99999999999999999999999',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '0000-01-01',
  '0000-01-01T00%3A00%3A00Z',
  '9999-12-31',
  '10000-01-01',
  'x'.repeat(3000),
  '%F0%9F%9A%97',
  '%20',
  '',
  "'%20or%201%3D1",
  '..%2F..%2Fetc',
];

/** Whole bodies: not an object, too deep, too wide, or not JSON at all. */
const BAD_BODIES: Array<{ raw: string }> = [
  // Written out as text: stringifying 5,000 levels would exhaust the test's own stack.
  { raw: '['.repeat(5000) + '1' + ']'.repeat(5000) },
  { raw: '{"events":' + '['.repeat(5000) + ']'.repeat(5000) + '}' },
  { raw: '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) },
  { raw: JSON.stringify(nested(33, 'x', true)) },
  { raw: 'null' },
  { raw: '[]' },
  { raw: '"text"' },
  { raw: '42' },
  { raw: '{' },
  { raw: '' },
  { raw: '{"\\u0000":1}' },
  { raw: '{"a":"\\ud800"}' },
  { raw: JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))) },
];

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  schema: JsonSchema;
}
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minItems?: number;
}
interface Operation {
  method: string;
  path: string;
  parameters: OpenApiParameter[];
  body?: JsonSchema;
}

interface FuzzRequest {
  method: string;
  url: string;
  payload?: string;
  signedIn: boolean;
  what: string;
}

const ENGINES = engines();

describe.each(ENGINES)('fuzzing every route on %s', (engine) => {
  let ctx: TestContext;
  let victim: SignedIn;
  let fuzzer: SignedIn;
  const facts = { vin: '', victimTrip: '', fuzzerTrip: '', victimCard: '', fuzzerSecret: '', searchId: 0 };

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    victim = await signInAs(ctx);
    fuzzer = await signInAs(ctx);
    // The victim: a profile, a saved card and a trip, all made through the API or as booking leaves them.
    const profile = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/profile',
      headers: victim.headers,
      payload: { first_name: 'Vera', last_name: 'Victim', birthday: '1990-04-02', city: 'Nashville' },
    });
    expect(profile.statusCode).toBe(200);
    const intent = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments/setup-intent',
      headers: victim.headers,
    });
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/sandbox/v1/setup_intents/confirm',
      payload: {
        client_secret: intent.json().stripe.client_secret,
        card: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' },
      },
    });
    expect(saved.statusCode).toBe(200);
    facts.victimCard = (
      await ctx.app.inject({ url: '/api/v1/users/credit-cards', headers: victim.headers })
    ).json().cards[0].id;
    facts.victimTrip = (await startedTrip(ctx.handle.db, victim.userId, ctx.clock.now)).platformId;
    facts.fuzzerTrip = (await startedTrip(ctx.handle.db, fuzzer.userId, ctx.clock.now)).platformId;
    facts.fuzzerSecret = (
      await ctx.app.inject({ method: 'POST', url: '/api/v1/payments/setup-intent', headers: fuzzer.headers })
    ).json().stripe.client_secret;
    const car = await ctx.handle.db.selectFrom('vehicles').select('vin').orderBy('id').executeTakeFirstOrThrow();
    facts.vin = car.vin;
    const option = await ctx.handle.db
      .selectFrom('search_options')
      .select('id')
      .where('type', '=', 'CITY')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    facts.searchId = option.id;
  });
  afterAll(() => ctx?.close());

  /** What the victim sees of their own data; it must read the same after the fuzzing. */
  async function victimView() {
    const get = async (url: string) => {
      const res = await ctx.app.inject({ url, headers: victim.headers });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    return {
      profile: await get('/api/v1/users'),
      cards: await get('/api/v1/users/credit-cards'),
      trips: await get('/api/v1/reservations'),
    };
  }

  /** A plausible value for a field, so that one bad field at a time reaches the code behind the schema. */
  function plausible(name: string, schema: JsonSchema, path = ''): unknown {
    if (path === '/api/v1/discounts/apply' && name === 'code') return 'EVENT15';
    const known: Record<string, unknown> = {
      state: 'TN',
      zip_code: '37203',
      country: 'US',
      email: 'fuzz@example.com',
      birthday: '1990-01-01',
      client_secret: facts.fuzzerSecret,
      vehicleVin: facts.vin,
      platform_id: facts.fuzzerTrip,
      platformId: facts.fuzzerTrip,
      pickupDate: '2027-03-01',
      returnDate: '2027-03-04',
      pickupTime: '10:00',
      returnTime: '10:00',
      vehicleTimezone: 'America/Chicago',
      pickupAt: '2027-03-01T10:00:00-06:00',
      returnAt: '2027-03-04T10:00:00-06:00',
      phone: '+16155550199',
      code: '123456',
      date: '2026-11-22',
      signature: 'Fuzz Tester',
      occurred_at: '2026-11-22T15:00:00Z',
      socket_id: '123.456',
      channel_name: `private-${fuzzer.userId}`,
    };
    if (name in known) return known[name];
    if (schema.enum) return schema.enum[0];
    if (schema.default !== undefined) return schema.default;
    const type = Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? schema.anyOf?.[0]?.type);
    switch (type) {
      case 'integer':
      case 'number':
        return 1;
      case 'boolean':
        return true;
      case 'array':
        return schema.items && (schema.minItems ?? 0) > 0 ? [plausibleObject(schema.items)] : [];
      case 'object':
        return plausibleObject(schema, path);
      default:
        return schema.format === 'date-time' ? '2027-01-01T10:00:00Z' : 'fuzz';
    }
  }
  function plausibleObject(schema: JsonSchema, path = ''): unknown {
    if (!schema.properties)
      return plausible(
        '',
        { ...schema, properties: undefined, type: schema.type === 'object' ? 'string' : schema.type },
        path,
      );
    return Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, plausible(k, s, path)]));
  }
  function plausiblePath(name: string): string {
    const byName: Record<string, string> = { id: '1', searchQueryId: String(facts.searchId), provider: 'sandbox' };
    return byName[name] ?? '1';
  }

  function requestsFor(op: Operation, signedIn: boolean, rnd: ReturnType<typeof prng>): FuzzRequest[] {
    const out: FuzzRequest[] = [];
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const urlWith = (overrides: Record<string, string>, query: string) => {
      let url = op.path;
      for (const p of pathParams) url = url.replace(`{${p.name}}`, overrides[p.name] ?? plausiblePath(p.name));
      return query ? `${url}?${query}` : url;
    };
    const baseBody = op.body ? (plausibleObject(op.body, op.path) as Record<string, unknown>) : undefined;
    const add = (what: string, url: string, payload?: unknown, raw?: string) =>
      out.push({
        method: op.method,
        url,
        signedIn,
        what,
        payload:
          raw ?? (payload === undefined ? (baseBody ? JSON.stringify(baseBody) : undefined) : JSON.stringify(payload)),
      });

    // Path parameters: every bad value, and ids of someone else's things.
    for (const p of pathParams) {
      for (const v of [...BAD_URL_VALUES, facts.victimTrip, facts.victimCard])
        add(`path ${p.name}=${v.slice(0, 30)}`, urlWith({ [p.name]: v }, ''));
    }
    // Query parameters: a sample of bad values for each, and each given twice.
    for (const p of queryParams) {
      for (const v of rnd.sample(BAD_URL_VALUES, 14))
        add(`query ${p.name}=${v.slice(0, 30)}`, urlWith({}, `${p.name}=${v}`));
      add(`query ${p.name} twice`, urlWith({}, `${p.name}=a&${p.name}=b`));
    }
    if (queryParams.length === 0 && pathParams.length === 0 && !op.body) {
      for (const v of rnd.sample(BAD_URL_VALUES, 4)) add(`stray query ${v.slice(0, 30)}`, urlWith({}, `x=${v}`));
    }
    if (op.body && baseBody) {
      const url = urlWith({}, '');
      // One field at a time: bad values, a missing field, and the same for a field inside an array item.
      for (const key of Object.keys(baseBody)) {
        for (const v of rnd.sample(BAD_JSON_VALUES, 12))
          add(`body ${key}=${JSON.stringify(v)?.slice(0, 30)}`, url, { ...baseBody, [key]: v });
        // Someone else's things by id: never theirs to change.
        if (typeof baseBody[key] === 'string')
          for (const v of [facts.victimTrip, facts.victimCard]) add(`body ${key}=${v}`, url, { ...baseBody, [key]: v });
        const { [key]: _dropped, ...rest } = baseBody;
        add(`body without ${key}`, url, rest);
        const inner = baseBody[key];
        if (Array.isArray(inner) && inner[0] && typeof inner[0] === 'object') {
          for (const innerKey of Object.keys(inner[0] as object)) {
            for (const v of rnd.sample(BAD_JSON_VALUES, 6))
              add(`body ${key}[0].${innerKey}=${JSON.stringify(v)?.slice(0, 30)}`, url, {
                ...baseBody,
                [key]: [{ ...(inner[0] as object), [innerKey]: v }],
              });
          }
        }
      }
      add('body with an unknown field', url, { ...baseBody, ['unknown\u0000']: 1 });
      for (const b of BAD_BODIES) add(`body ${b.raw.slice(0, 30)}`, url, undefined, b.raw);
    }
    return out;
  }

  it('the reported cases answer 400 with a message naming the field', async () => {
    const cases: Array<{
      method?: 'GET' | 'POST' | 'PATCH';
      url: string;
      payload?: string;
      signedIn?: boolean;
      field: string;
      message: RegExp;
    }> = [
      { url: '/api/v1/locations/search?query=%00', field: 'query', message: /NUL/ },
      { url: '/api/v1/search/autocomplete?query=Nash%00ville', field: 'query', message: /NUL/ },
      { url: '/api/v1/search/2147483648', field: 'id', message: /at most 2147483647/ },
      { url: '/api/v1/search/landmarks-near/2147483648', field: 'id', message: /at most 2147483647/ },
      {
        url: '/api/v1/vehicles/search/4294967296?pickupDate=2027-01-01&returnDate=2027-01-03',
        field: 'searchQueryId',
        message: /at most 2147483647/,
      },
      {
        method: 'PATCH',
        url: '/api/v1/users/profile',
        payload: JSON.stringify({ first_name: 'A\u0000' }),
        signedIn: true,
        field: 'first_name',
        message: /NUL/,
      },
      {
        method: 'PATCH',
        url: '/api/v1/users/profile',
        payload: JSON.stringify({ city: 'x\ud800' }),
        signedIn: true,
        field: 'city',
        message: /unpaired surrogates/,
      },
      {
        method: 'POST',
        url: '/api/v1/events',
        payload: JSON.stringify({
          events: [{ name: 'search_performed', properties: {}, occurred_at: '0000-01-01T00:00:00Z' }],
        }),
        field: 'events.0.occurred_at',
        message: /1900 and 9999/,
      },
      {
        method: 'POST',
        url: '/api/v1/events',
        payload: JSON.stringify({ events: [{ name: 'search_performed', properties: { a: 'x\u0000' } }] }),
        field: 'events.0.properties.a',
        message: /NUL/,
      },
      {
        method: 'POST',
        url: '/api/v1/events',
        payload: '{"events":[{"name":"search_performed","properties":' + '['.repeat(5000) + ']'.repeat(5000) + '}]}',
        field: 'events.0.properties.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0',
        message: /nests too deeply/,
      },
    ];
    for (const c of cases) {
      const res = await ctx.app.inject({
        method: c.method ?? 'GET',
        url: c.url,
        headers: {
          ...(c.signedIn ? fuzzer.headers : {}),
          ...(c.payload ? { 'content-type': 'application/json' } : {}),
        },
        ...(c.payload ? { payload: c.payload } : {}),
      });
      expect({ url: c.url, status: res.statusCode, field: res.json().field }).toEqual({
        url: c.url,
        status: 400,
        field: c.field,
      });
      expect(res.json().message).toMatch(c.message);
    }
  });

  it('a few thousand bad requests to every route, signed out and signed in: no 5xx, the server healthy, the other renter unchanged', async () => {
    const before = await victimView();
    const doc = (await ctx.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<
          string,
          { parameters: OpenApiParameter[]; requestBody?: { content: { 'application/json': { schema: JsonSchema } } } }
        >
      >;
    };
    const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters,
        body: op.requestBody?.content['application/json'].schema,
      })),
    );
    expect(operations.length).toBeGreaterThan(30);
    // Served outside the document (an image and a PDF link): fuzzed alike.
    const text = { type: 'string' };
    operations.push(
      {
        method: 'GET',
        path: '/media/vehicles/{slug}/{color}/{file}',
        parameters: ['slug', 'color', 'file'].map((name) => ({ name, in: 'path' as const, schema: text })),
      },
      {
        method: 'GET',
        path: '/api/v1/agreements/{id}/document',
        parameters: [
          { name: 'id', in: 'path', schema: text },
          { name: 'expires', in: 'query', schema: text },
          { name: 'signature', in: 'query', schema: text },
        ],
      },
    );
    const rnd = prng(SEED);
    const requests = operations.flatMap((op) =>
      // Signing out mid-run would turn the rest of the signed-in half into 401s: logout is fuzzed signed out only.
      [false, true]
        .filter((signedIn) => !(signedIn && op.path === '/api/v1/auth/logout'))
        .flatMap((signedIn) => requestsFor(op, signedIn, rnd)),
    );
    expect(requests.length).toBeGreaterThan(2000);
    const share = requests.filter((_, i) => i % ENGINES.length === ENGINES.indexOf(engine));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const r of share) {
      const res = await ctx.app.inject({
        method: r.method as 'GET',
        url: r.url,
        headers: {
          ...(r.signedIn ? fuzzer.headers : {}),
          ...(r.payload !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(r.payload !== undefined ? { payload: r.payload } : {}),
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500)
        failures.push(
          `${r.method} ${r.url.slice(0, 120)} (${r.signedIn ? 'signed in' : 'signed out'}; ${r.what}) → ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
    }
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    console.log(
      `fuzz on ${engine}: ${share.length} of ${requests.length} requests to ${operations.length} operations, ${fivexx} × 5xx; statuses ${[
        ...statuses,
      ]
        .sort(([a], [b]) => a - b)
        .map(([s, c]) => `${s}: ${c}`)
        .join(', ')}`,
    );
    expect(failures).toEqual([]);

    // Still healthy, still answering real requests, and the other renter's data untouched.
    expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/v1/search/cities' })).statusCode).toBe(200);
    expect(await victimView()).toEqual(before);
  }, 120_000);
});
