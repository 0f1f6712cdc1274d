import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findAnachronisms, parseLexicon } from '../../src/style/index.js';
import * as hooks from '../../src/providers/offline/phrases/hooks.js';
import * as places from '../../src/providers/offline/phrases/places.js';
import * as reactions from '../../src/providers/offline/phrases/reactions.js';
import * as voice from '../../src/providers/offline/phrases/voice.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every string reachable in a phrase module (arrays and records, nested). */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

/**
 * The offline writer draws its lines from these pools, a few per scene: a pool line holding a
 * lexicon word only shows when a seed happens to draw it (a season once failed on "The guild
 * bosses listen to me."). So every line of every pool is held to the starter lexicon here.
 */
describe('offline phrase pools', () => {
  it('hold no word the starter lexicon forbids', () => {
    const { entries } = parseLexicon(fs.readFileSync(path.join(repo, 'style', 'lexicon.md'), 'utf8'));
    expect(entries.length).toBeGreaterThan(10);
    const lines = strings([hooks, places, reactions, voice]);
    expect(lines.length).toBeGreaterThan(300);
    const hits = lines.flatMap((l) => findAnachronisms(l, entries).map((h) => `${h.word}: ${l}`));
    expect(hits).toEqual([]);
  });
});
