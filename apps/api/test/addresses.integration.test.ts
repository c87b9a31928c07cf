import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

/** Spec 7: address suggestions with the search text, include_only_states and prefer_states (built-in list). */
describe.each(engines())('address suggestions on %s', (engine) => {
  let ctx: TestContext;
  let who: SignedIn;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
    who = await signInAs(ctx);
  });
  afterAll(() => ctx?.close());

  const suggest = (query: Record<string, string>, signedIn = true) =>
    ctx.app.inject({
      url: `/api/v1/addresses/suggest?${new URLSearchParams(query).toString()}`,
      headers: signedIn ? who.headers : {},
    });
  const states = async (query: Record<string, string>) => {
    const res = await suggest(query);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().suggestions as { state: string }[]).map((s) => s.state);
  };

  it('keeps to include_only_states, the preferred states first among them', async () => {
    expect(await states({ search: '500 Main' })).toEqual(['TN', 'TX']);
    expect(await states({ search: '500 Main', prefer_states: 'TX' })).toEqual(['TX', 'TN']);
    expect(await states({ search: '500 Main', include_only_states: 'tx,ca', prefer_states: 'TN,TX' })).toEqual(['TX']);
    expect(await states({ search: '500 Main', include_only_states: 'CA,NY' })).toEqual([]);
  });

  it('refuses what is not a list of US state codes, naming the field and the code', async () => {
    const unknown = await suggest({ search: '500 Main', include_only_states: 'TX,ZZ' });
    expect([unknown.statusCode, unknown.json().field]).toEqual([400, 'include_only_states']);
    expect(unknown.json().message).toBe('include_only_states must be US state codes; not ZZ');
    const malformed = await suggest({ search: '500 Main', prefer_states: 'Texas' });
    expect([malformed.statusCode, malformed.json().field]).toEqual([400, 'prefer_states']);
    expect((await suggest({ search: '500 Main' }, false)).statusCode).toBe(401);
  });
});
