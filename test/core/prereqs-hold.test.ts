import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPrereqs, prereqsHold } from '../../src/core/expr/index.js';
import { indexWorld } from '../../src/core/world-index.js';
import { loadWorldOrThrow } from '../../src/store/index.js';
import { enumerateBindings } from '../../src/stages/b-proposals/bdi.js';

/**
 * prereqsHold stops at the first prerequisite that fails (the Director's reserves only need the
 * verdict): it must agree with checkPrereqs(...).holds on every binding, failing ones included.
 */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/worlds');

describe.each(['planning-base', 'planning-dead-principal'])('prereqsHold on %s', (name) => {
  it('agrees with checkPrereqs(...).holds for every operator, actor and binding', async () => {
    const { world } = await loadWorldOrThrow(path.join(FIXTURES, name));
    const index = indexWorld(world);
    let holding = 0;
    let failing = 0;
    for (const op of world.operators.operators) {
      for (const c of world.characters.characters) {
        for (const b of enumerateBindings(world, op, c.id)) {
          const want = checkPrereqs(op, b, index, { episode: 2 }).holds;
          expect(prereqsHold(op, b, index, { episode: 2 }), `${op.id} ${JSON.stringify(b)}`).toBe(want);
          if (want) holding++;
          else failing++;
        }
      }
    }
    expect(holding).toBeGreaterThan(0);
    expect(failing).toBeGreaterThan(0);
  });
});
