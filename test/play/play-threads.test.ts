import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';

/**
 * A thread proposed in play reaches season planning: `/thread` is written at canonization to the
 * season notes' `proposed_threads` (schema-valid, with its session, turn and stakeholders), and the
 * next episode's planning inputs (seasonPlanningInputs, shared by `episode plan` and `episode run`)
 * carry it to the Director.
 */
describe.skipIf(!builtCli())('aureus play: proposed threads feed season planning', () => {
  const base = useWorld('play-threads');

  it('/thread → notes.json proposed_threads → the next episode planning inputs', async () => {
    const w = copyRepo(base(), 'play-threads-w');
    const input = ["Crassus, what does Catiline owe you?", "/thread Will Crassus call in Catiline's debts before the consular elections?", '/end'].join('\n') + '\n';
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'crassus,catiline', '--mode', 'open', '--session', 'th'], w, input);
    expect(r.code, r.stderr).toBe(0);
    const turn = records(w, 'th').find((x) => x.type === 'command' && x.name === 'thread')!.id;
    const notesFile = path.join(w, 'seasons/season_01/notes.json');
    const doc = JSON.parse(fs.readFileSync(notesFile, 'utf8')) as { proposed_threads: unknown[]; notes: unknown[] };
    expect(doc.proposed_threads).toEqual([
      { id: 'pt001', question: "Will Crassus call in Catiline's debts before the consular elections?", episode: 's01e01', source: 'play', session: 'th', turn, stakeholders: ['cicero', 'catiline', 'crassus'] },
    ]);
    expect(git(w, 'show', '--name-only', '--format=', 'HEAD').split('\n')).toContain('seasons/season_01/notes.json');
    // `aureus note` keeps them (one notes file, two writers).
    expect((await cli(['note', 'Cato should lose his temper in public'], w)).code).toBe(0);
    expect((JSON.parse(fs.readFileSync(notesFile, 'utf8')) as { proposed_threads: unknown[] }).proposed_threads).toHaveLength(1);

    const { seasonPlanningInputs } = await import('../../src/pipeline/planning-adapter.js');
    const { loadWorldOrThrow } = await import('../../src/store/load.js');
    const { episodeRef } = await import('../../src/domain/context.js');
    const { world } = await loadWorldOrThrow(w);
    const inputs = await seasonPlanningInputs(w, episodeRef(1, 1), world, null);
    expect(inputs.steering.notes).toContainEqual({ id: 'pt001', text: "Proposed thread (play session th): Will Crassus call in Catiline's debts before the consular elections?", character: 'cicero' });
    // And the episode plans with it (exit 0; the Director read it).
    const plan = await cli(['episode', 'plan'], w);
    expect(plan.code, plan.stderr).toBe(0);
  });

  it('a hand-broken proposed thread is a clear exit 3 naming the file and pointer', async () => {
    const w = copyRepo(base(), 'play-threads-bad');
    fs.mkdirSync(path.join(w, 'seasons/season_01'), { recursive: true });
    fs.writeFileSync(path.join(w, 'seasons/season_01/notes.json'), JSON.stringify({ format: 1, season: 1, notes: [], proposed_threads: [{ id: 'pt001', question: '', episode: 's01e01', source: 'play', stakeholders: [] }] }));
    const r = await cli(['episode', 'plan'], w);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/seasons\/season_01\/notes\.json/);
    expect(r.stderr).toMatch(/\/proposed_threads\/0\/question/);
  });
});
