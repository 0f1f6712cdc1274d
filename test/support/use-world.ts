import { afterAll, beforeAll } from 'vitest';
import { cleanup, makeWorld } from '../pipeline/world.js';

/**
 * A world made by `aureus init` once for a test file or describe block (before its tests), and the
 * temp folders removed after them. Returns the world's path once made: tests copyRepo it, so none
 * changes what another reads.
 */
export function useWorld(label: string): () => string {
  let base = '';
  beforeAll(async () => {
    base = await makeWorld(label);
  });
  afterAll(() => cleanup());
  return () => {
    if (!base) throw new Error('the world is used before its beforeAll hook made it');
    return base;
  };
}
