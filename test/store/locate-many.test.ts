import { parse as momoaParse } from '@humanwhocodes/momoa';
import { describe, expect, it } from 'vitest';
import { locator, parseJson } from '../../src/store/json-parse.js';

/**
 * Locating the diagnostics of a file (one JSON pointer each) cost a scan of an object's members per
 * pointer: a world file with 32,000 unknown keys took 40 s to validate, 150,000 over a minute.
 * Each object's members are now read once, however many pointers pass through it.
 */
describe('locating many JSON pointers', () => {
  it('reads the members of an object once, not once per pointer', () => {
    const n = 2000;
    const text = '{' + Array.from({ length: n }, (_, i) => `"k${i}": ${i}`).join(',\n') + '}';
    const doc = momoaParse(text, { mode: 'json' });
    const body = doc.body as Extract<typeof doc.body, { type: 'Object' }>;
    let reads = 0;
    // Count every read of a member by index: what a search of the members costs.
    body.members = new Proxy(body.members, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const locate = locator(doc);
    for (let i = 0; i < n; i++) expect(locate(`/k${i}`)).toMatchObject({ line: i + 1, column: i === 0 ? 2 : 1 });
    expect(reads).toBeLessThanOrEqual(n);
  });

  it('still names the last of duplicate keys, and the deepest existing ancestor of a missing one', () => {
    const r = parseJson('{"a": {"b": 1},\n "a": {"c": [10, 20]}}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.locate('/a')).toMatchObject({ line: 2, column: 2 });
    expect(r.locate('/a/c/1')).toMatchObject({ line: 2, column: 18 });
    expect(r.locate('/a/zz/3')).toMatchObject({ line: 2, column: 2 });
  });
});
