import { describe, expect, it } from 'vitest';
import { SMARTY_URL, SmartyAddressProvider, mapSmartySuggestions } from './smarty-provider.ts';

function fakeFetch(answer: { ok?: boolean; status?: number; body?: unknown; throws?: Error }) {
  const calls: { url: URL; headers: Record<string, string> }[] = [];
  const fn = (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => {
    calls.push({ url: new URL(url), headers: init.headers });
    if (answer.throws) return Promise.reject(answer.throws);
    return Promise.resolve({
      ok: answer.ok ?? true,
      status: answer.status ?? 200,
      json: () => Promise.resolve(answer.body),
    });
  };
  return { fn, calls };
}

describe('Smarty US Autocomplete Pro adapter', () => {
  it('calls /lookup with the server-side auth id and token, the search, at most 10 results and the preferred states joined by semicolons', async () => {
    const { fn, calls } = fakeFetch({ body: { suggestions: [] } });
    await new SmartyAddressProvider({ authId: 'id-1', authToken: 'tok-1' }, fn).suggest({
      search: '123 Main',
      preferStates: ['TN', 'MO'],
      includeStates: [],
    });
    expect(calls).toHaveLength(1);
    const url = calls[0]!.url;
    expect(`${url.origin}${url.pathname}`).toBe(SMARTY_URL);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'auth-id': 'id-1',
      'auth-token': 'tok-1',
      search: '123 Main',
      max_results: '10',
      prefer_states: 'TN;MO',
    });
  });

  it('sends include_only_states, joined by semicolons, when the renter is kept to some states', async () => {
    const { fn, calls } = fakeFetch({ body: { suggestions: [] } });
    await new SmartyAddressProvider({ authId: 'a', authToken: 'b' }, fn).suggest({
      search: '9 Elm',
      preferStates: ['TX'],
      includeStates: ['TX', 'TN', 'CA'],
    });
    expect(calls[0]!.url.searchParams.get('include_only_states')).toBe('TX;TN;CA');
    expect(calls[0]!.url.searchParams.get('prefer_states')).toBe('TX');
  });

  it('leaves prefer_states and include_only_states out when there are none', async () => {
    const { fn, calls } = fakeFetch({ body: { suggestions: [] } });
    await new SmartyAddressProvider({ authId: 'a', authToken: 'b' }, fn).suggest({
      search: 'Elm',
      preferStates: [],
      includeStates: [],
    });
    expect(calls[0]!.url.searchParams.has('prefer_states')).toBe(false);
    expect(calls[0]!.url.searchParams.has('include_only_states')).toBe(false);
  });

  it("maps Smarty's suggestions to street_line, secondary, city, state, zipcode (extra fields dropped, missing ones '')", async () => {
    const body = {
      suggestions: [
        {
          street_line: '123 Main St',
          secondary: 'Apt',
          city: 'Nashville',
          state: 'TN',
          zipcode: '37206',
          entries: 4,
          source: 'postal',
        },
        { street_line: '9 Elm St', city: 'Dallas', state: 'TX', zipcode: '75201' },
        { secondary: '', city: 'Nowhere', state: 'TX', zipcode: '75000' },
      ],
    };
    const { fn } = fakeFetch({ body });
    expect(
      await new SmartyAddressProvider({ authId: 'a', authToken: 'b' }, fn).suggest({
        search: '1',
        preferStates: [],
        includeStates: [],
      }),
    ).toEqual([
      { street_line: '123 Main St', secondary: 'Apt', city: 'Nashville', state: 'TN', zipcode: '37206' },
      { street_line: '9 Elm St', secondary: '', city: 'Dallas', state: 'TX', zipcode: '75201' },
    ]);
  });

  it('reads an answer without suggestions (Smarty sends {} or null when nothing matches) as none', () => {
    expect(mapSmartySuggestions({})).toEqual([]);
    expect(mapSmartySuggestions(null)).toEqual([]);
    expect(mapSmartySuggestions({ suggestions: null })).toEqual([]);
  });

  it('throws on a refusal, naming the status but not the credentials', async () => {
    const { fn } = fakeFetch({ ok: false, status: 401, body: { errors: [{ message: 'Unauthorized: auth-id=id-1' }] } });
    const err = await new SmartyAddressProvider({ authId: 'id-1', authToken: 'tok-1' }, fn)
      .suggest({ search: 'x', preferStates: [], includeStates: [] })
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('Smarty US Autocomplete Pro answered 401');
  });

  it('passes a network failure on to the route, which answers 503', async () => {
    const { fn } = fakeFetch({ throws: new TypeError('fetch failed') });
    await expect(
      new SmartyAddressProvider({ authId: 'a', authToken: 'b' }, fn).suggest({
        search: 'x',
        preferStates: [],
        includeStates: [],
      }),
    ).rejects.toThrow('fetch failed');
  });
});
