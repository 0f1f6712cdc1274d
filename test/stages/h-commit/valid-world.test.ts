import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import type { EpisodePlan } from '../../../src/domain/plan.js';
import type { ApprovedScene, Claim } from '../../../src/domain/scene.js';
import { loadWorldOrThrow } from '../../../src/store/index.js';
import { applyApprovedScenes } from '../../../src/stages/h-commit/apply.js';
import { requireValidWorld } from '../../../src/stages/h-commit/valid-world.js';
import { ExitCode, isAureusError } from '../../../src/errors.js';

/** The gate before the commit: the world an episode would write passes what `aureus validate` checks. */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let world: World;
beforeAll(async () => {
  world = (await loadWorldOrThrow(REPO)).world;
});

const plan = (): EpisodePlan =>
  ({ episode_id: 's01e01', beats: [], scenes: [{ id: 'SC01', number: 1, act: 1, location: world.world.locations[0]!.id, time_of_day: 'day', day: 0, cast: [], beats: [], purpose: '', marquee: false }] }) as unknown as EpisodePlan;
const scene = (claims: Claim[]): ApprovedScene => ({ scene: 'SC01', text: '', events: [], accepted_claims: claims, downgraded_claims: [], attempts: 1, model: 'offline', simplified: false });
const committed = (claims: Claim[]) => applyApprovedScenes(world, plan(), [], [scene(claims)]).world;

describe('stage H: a committed world is a valid world', () => {
  it('passes an unchanged world and a canon fact whose subject the world has', () => {
    expect(() => requireValidWorld(world, world, 's01e01', 'run')).not.toThrow();
    const after = committed([{ id: 'c1', kind: 'fact', text: 'The Senate met.', subject: world.characters.characters[0]!.id }]);
    expect(after.canon).not.toBe(world.canon);
    expect(() => requireValidWorld(world, after, 's01e01', 'run')).not.toThrow();
  });

  it('refuses a canon fact whose subject names nothing (AUR6026 with the AUR1022 validate gives, exit 6)', () => {
    const after = committed([{ id: 'c1', kind: 'minor_character', text: 'Davus, a porter.', subject: 'davus' }]);
    let err: unknown;
    try {
      requireValidWorld(world, after, 's01e01', '.aureus/runs/x');
    } catch (e) {
      err = e;
    }
    expect(isAureusError(err)).toBe(true);
    if (!isAureusError(err)) return;
    expect(err.exitCode).toBe(ExitCode.PLAN_INFEASIBLE);
    expect(err.diagnostics.map((d) => d.code)).toEqual(['AUR6026', 'AUR1022']);
    expect(err.diagnostics[0]!.message).toContain('s01e01');
    expect(err.diagnostics[0]!.hint).toContain('.aureus/runs/x');
    expect(err.diagnostics[1]).toMatchObject({ file: 'world/canon.json', pointer: `/facts/${world.canon.facts.length}/subject` });
  });

  it('checks the schemas of the files the episode changed: an edge flag its pattern refuses', () => {
    const rels = world.relationships.relationships;
    const after: World = { ...world, relationships: { ...world.relationships, relationships: [{ ...rels[0]!, flags: [...rels[0]!.flags, 'Former Lovers'] }, ...rels.slice(1)] } };
    expect(() => requireValidWorld(world, after, 's01e01', 'run')).toThrow(/would commit a world `aureus validate` refuses/);
    // The same object as before is not re-checked: an untouched file loaded valid.
    expect(() => requireValidWorld(after, after, 's01e01', 'run')).not.toThrow();
  });
});
