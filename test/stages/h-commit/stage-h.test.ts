import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import type { EpisodePlan, OperatorApplication } from '../../../src/domain/plan.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { ApprovedScene } from '../../../src/domain/scene.js';
import { loadWorldOrThrow } from '../../../src/store/index.js';
import { applyApprovedScenes, rumorBelief } from '../../../src/stages/h-commit/apply.js';
import { cliffhangerKind, extractCliffhanger } from '../../../src/stages/h-commit/cliffhanger.js';
import { commitMessage } from '../../../src/stages/h-commit/index.js';
import { addDays } from '../../../src/core/roman-date.js';
import { buildDashboard, recapEvents, renderRecapMarkdown, type RecapPayload } from '../../../src/stages/h-commit/recap-model.js';
import { realizeRecap } from '../../../src/providers/offline/recap.js';
import { episodeRef } from '../../../src/domain/context.js';
import { isAureusError } from '../../../src/errors.js';
import { stableStringify } from '../../../src/core/json.js';

/** Stage H's pure parts on the starter kit's world, with small hand-made plans. */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let world: World;
let a = '';
let b = '';
let c = '';
let secret = '';

beforeAll(async () => {
  world = (await loadWorldOrThrow(REPO)).world;
  const alive = world.characters.characters.filter((x) => x.status === 'alive');
  [a, b, c] = [alive[0].id, alive[1].id, alive[2].id];
  secret = world.secrets.secrets.find((s) => s.status === 'hidden')!.id;
});

function app(id: string, deltas: OperatorApplication['required_deltas'], extra: Partial<OperatorApplication> = {}): OperatorApplication {
  return { id, operator_id: world.operators.operators[0].id, type: 'thriller', bindings: { actor: a, target: b }, outcome: 'success', risks: [], prereqs: [], required_deltas: deltas, threads_advanced: [], source: 'director', ...extra };
}

function plan(apps: { scene: string; app: OperatorApplication; tag?: 'cliffhanger' }[]): EpisodePlan {
  const scenes = [...new Set(apps.map((x) => x.scene))];
  return {
    format: 1, episode_id: 's01e01', season: 1, episode: 1, seed: 't', title: 'Test', state_hash: '', objectives: {},
    beats: apps.map((x, i) => ({ id: `b${i + 1}`, act: 1, phase: 'establishment', tag: x.tag ?? null, scene: x.scene, applications: [x.app], summary: `beat ${i + 1}` })),
    scenes: scenes.map((id, i) => ({ id, number: i + 1, act: 1, location: world.world.locations[0].id, time_of_day: 'day', day: i, cast: [a, b], beats: [], purpose: '', marquee: false })),
    threads_advanced: [], drama_responses: [], acceptance_checks: [], director: { source: 'symbolic', attempts: 1, fallback_reason: null },
  };
}

function packet(scene: string, cast: { id: string; status: string }[]): ScenePacket {
  return { scene_id: scene, cast: cast.map((m) => ({ ...m, name: m.id, cue: m.id.toUpperCase() })), dead: [], director_instructions: { purpose: '', sequence: [] } } as unknown as ScenePacket;
}

function approved(scene: string, extra: Partial<ApprovedScene> = {}): ApprovedScene {
  return { scene, text: '', events: [], accepted_claims: [], downgraded_claims: [], attempts: 1, model: 'offline', simplified: false, ...extra };
}

describe('stage H: canon', () => {
  it('applies the approved scenes in plan order with provenance, claims to canon and rumours', () => {
    const p = plan([
      { scene: 'SC01', app: app('a01', [{ path: 'world.global.unrest', op: 'add', value: 1 }]) },
      { scene: 'SC02', app: app('a02', [{ path: `secrets.${secret}.status`, op: 'set', value: 'revealed' }, { path: 'assets.cash_ledger', op: 'transfer', from: a, to: b, amount: 10 }]) },
    ]);
    const scenes = [
      approved('SC02', { events: [{ id: 'e3', type: 'operator', application_id: 'a02', deltas: [], text: '' }], downgraded_claims: [{ id: 'c1', kind: 'rumor', text: 'The grain ships  were burned.' }] }),
      approved('SC01', { accepted_claims: [{ id: 'c1', kind: 'object', text: 'A bronze key.' }] }),
    ];
    const packets = [packet('SC01', [{ id: a, status: 'alive' }]), packet('SC02', [{ id: a, status: 'alive' }, { id: c, status: 'dead' }])];
    const before = stableStringify(world);
    const r = applyApprovedScenes(world, p, packets, scenes);
    expect(stableStringify(world)).toBe(before); // input untouched
    expect(r.applied.map((d) => [d.provenance.scene, d.provenance.event, d.path])).toEqual([
      ['SC01', 'plan', 'world.global.unrest'],
      ['SC02', 'e3', `secrets.${secret}.status`],
      ['SC02', 'e3', 'assets.cash_ledger'],
      ['SC02', 'claim:c1', `characters.${a}.bdi.beliefs`],
    ]);
    expect(r.applied[3].provenance.operator).toBeNull();
    expect(r.world.characters.characters.find((x) => x.id === a)!.bdi.beliefs).toContain('RUMOR: The grain ships were burned.');
    expect(r.world.characters.characters.find((x) => x.id === c)!.bdi.beliefs).not.toContain(rumorBelief({ id: 'c1', kind: 'rumor', text: 'The grain ships were burned.' }));
    expect(r.facts).toEqual([{ id: 'f_s01e01_sc01_1', kind: 'object', text: 'A bronze key.', episode: 's01e01', scene: 'SC01' }]);
    expect(r.world.canon.facts.at(-1)!.id).toBe('f_s01e01_sc01_1');
    expect(r.sceneWorlds.map((s) => s.scene)).toEqual(['SC01', 'SC02']);
  });

  it('gives a downgraded belief only to its holders among the living cast (spec §8.3)', () => {
    const p = plan([{ scene: 'SC01', app: app('a01', [{ path: 'world.global.unrest', op: 'add', value: 1 }]) }]);
    const belief = { id: 'c2', kind: 'belief' as const, text: 'The letters are in the strongbox.', holders: [b, c] };
    const packets = [packet('SC01', [{ id: a, status: 'alive' }, { id: b, status: 'alive' }, { id: c, status: 'dead' }])];
    const r = applyApprovedScenes(world, p, packets, [approved('SC01', { downgraded_claims: [belief] })]);
    // b holds it and is alive; a is in the scene but does not hold it; c holds it but is dead.
    expect(r.applied.filter((d) => d.provenance.event === 'claim:c2').map((d) => d.path)).toEqual([`characters.${b}.bdi.beliefs`]);
    expect(r.world.characters.characters.find((x) => x.id === a)!.bdi.beliefs).not.toContain(rumorBelief(belief));
  });

  it('a delta that cannot apply fails the commit with AUR6016 and leaves the world untouched', () => {
    const p = plan([{ scene: 'SC01', app: app('a01', [{ path: 'assets.cash_ledger', op: 'transfer', from: a, to: b, amount: 10 ** 12 }]) }]);
    const before = stableStringify(world);
    let err: unknown;
    try {
      applyApprovedScenes(world, p, [packet('SC01', [])], [approved('SC01')]);
    } catch (e) {
      err = e;
    }
    expect(isAureusError(err) && err.diagnostics[0].code).toBe('AUR6016');
    expect(stableStringify(world)).toBe(before);
  });
});

describe('stage H: cliffhanger, calendar, message', () => {
  it('reads the cliffhanger kind from the symbolic content', () => {
    expect(cliffhangerKind(app('x', [{ path: `characters.${b}.status`, op: 'set', value: 'imprisoned' }]), world)).toBe('physical_danger');
    expect(cliffhangerKind(app('x', [{ path: `secrets.${secret}.holders`, op: 'add', value: c }]), world)).toBe('revelation');
    const quiet = world.operators.operators.find((o) => !o.beats.includes('reveal') && !/blade|ambush|knife|kill|fire|mob|arrest|attack|poison|blood|murder|riot|storm|wound|flee|chase|drown|violence|sword|dagger|seize|burn|assassin/i.test(`${o.name} ${o.writer_guidance.success_beat} ${o.writer_guidance.fail_beat} ${o.writer_guidance.visual_cues.join(' ')}`))!;
    expect(cliffhangerKind(app('x', [{ path: 'world.global.unrest', op: 'add', value: 1 }], { operator_id: quiet.id, type: 'soap' }), world)).toBe('emotional');
    expect(cliffhangerKind(app('x', [{ path: 'world.global.unrest', op: 'add', value: 1 }], { operator_id: quiet.id, type: 'thriller' }), world)).toBe('political');
    const p = plan([
      { scene: 'SC01', app: app('a01', []) },
      { scene: 'SC02', app: app('a02', [{ path: `characters.${b}.status`, op: 'set', value: 'dead' }]), tag: 'cliffhanger' },
    ]);
    const ch = extractCliffhanger(p, [], world);
    expect(ch).toMatchObject({ kind: 'physical_danger', must_start_immediately: true, time_skip_allowed: false, scene: 'SC02', application_id: 'a02', characters: [a, b].sort() });
  });

  it('advances the calendar over the Republican month lengths (Quinctilis 31, December 29) and the year', () => {
    expect(addDays({ year_bc: 63, month: 7, day: 25 }, 10)).toEqual({ year_bc: 63, month: 8, day: 4 });
    expect(addDays({ year_bc: 63, month: 12, day: 29 }, 1)).toEqual({ year_bc: 62, month: 1, day: 1 });
    expect(addDays({ year_bc: 63, month: 1, day: 1 }, 0)).toEqual({ year_bc: 63, month: 1, day: 1 });
  });

  it('writes the commit message: subject, blank line, recap, trailers', () => {
    const m = commitMessage(episodeRef(1, 3), 'The Grain Ships', 'Previously on Rome…\n\nThings happened.\n', { provider: 'offline', models: 'writer=offline', seed: 'abc', tokens: '10 (input 6, output 4)', cost: '$0.0000' });
    expect(m.split('\n').slice(0, 5)).toEqual(['S01E03: The Grain Ships', '', 'Previously on Rome…', '', 'Things happened.']);
    expect(m).toMatch(/\n\nAureus-Provider: offline\nAureus-Models: writer=offline\nAureus-Seed: abc\nAureus-Tokens: 10 \(input 6, output 4\)\nAureus-Cost: \$0\.0000\n$/);
  });
});

describe('stage H: recap from deltas', () => {
  it('names the changes, keeps the most consequential, and is deterministic', () => {
    const p = plan([
      { scene: 'SC01', app: app('a01', [{ path: 'assets.cash_ledger', op: 'transfer', from: a, to: b, amount: 7 }, { path: 'assets.cash_ledger', op: 'transfer', from: a, to: b, amount: 9000 }, { path: 'assets.cash_ledger', op: 'transfer', from: b, to: a, amount: 500 }]) },
      { scene: 'SC02', app: app('a02', [{ path: `secrets.${secret}.status`, op: 'set', value: 'revealed' }, { path: `characters.${c}.status`, op: 'set', value: 'dead' }, { path: 'world.global.unrest', op: 'add', value: 2 }]) },
    ]);
    const r = applyApprovedScenes(world, p, [packet('SC01', []), packet('SC02', [])], [approved('SC01'), approved('SC02')]);
    const events = recapEvents(r.applied, world, r.world);
    const name = (id: string) => world.characters.characters.find((x) => x.id === id)!.name;
    const payload: RecapPayload = { task: 'recap', episode_id: 's01e01', title: 'T', world_title: 'Rome', events, dashboard: buildDashboard(world, r.world, 1), cliffhanger: { summary: 'A knife in the dark', open_question: 'Who?' } };
    const text = realizeRecap(payload);
    expect(text.startsWith('Previously on Rome…')).toBe(true);
    expect(text).toContain(`${name(c)} is dead.`);
    expect(text).toContain('The secret is out:');
    expect(text).toContain(`9,000 denarii passed from ${name(a)} to ${name(b)}.`);
    expect(text).toContain('500 denarii');
    expect(text).not.toContain(' 7 denarii'); // at most two transfers: the largest
    expect(text).toContain('And at the last: A knife in the dark.');
    expect(realizeRecap(payload)).toBe(text);
    const md = renderRecapMarkdown(payload, text);
    const unrest = payload.dashboard.metrics.find((m) => m.id === 'unrest')!;
    expect(md).toContain(`| ${unrest.label} | ${unrest.before} | ${unrest.after} | +2 |`);
    expect(md).toContain('## Threads');
    expect(md).toContain('**Open question:** Who?');
  });
});
