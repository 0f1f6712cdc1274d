import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { briefStrings, playScript, records } from './support.js';

/**
 * A scripted session through stdin (issue 15): four user lines including /note, the turn limit
 * reached, evaluation and next suggestion printed, ONE canonization commit whose deltas carry the
 * supporting turn ids, and neither directive text nor the hidden brief in anything the user sees.
 */
const SCRIPT = [
  'Catiline, where were you last night?',
  '/note Catiline lies about Faesulae',
  'You must answer me! The Senate will hear of this!',
  'Crassus, will you stand with him or with Rome?',
].join('\n') + '\n';
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--turns', '3', '--session', 's1'];

describe.skipIf(!builtCli())('aureus play, scripted through stdin', () => {
  const base = useWorld('play-base');

  it('plays to the turn limit, evaluates, suggests, and canonizes once with turn provenance', async () => {
    const w = copyRepo(base(), 'play-text');
    const headBefore = git(w, 'rev-parse', 'HEAD');
    const r = await playScript(ARGS, w, SCRIPT);
    expect(r.code, r.stderr).toBe(0);
    const said = r.stdout.split('\n').filter((l) => /^[A-Z]+: /.test(l));
    expect(said).toHaveLength(3);
    for (const l of said) expect(l).toMatch(/^(CATILINE|CRASSUS): \*[^*]+\* "/);
    expect(r.stdout).toContain('Scene complete (turn_limit)');
    expect(r.stdout).toMatch(/Evaluation: Marcus Tullius Cicero played 3 turn\(s\) at Forum Romanum/);
    expect(r.stdout).toMatch(/Your play style: /);
    expect(r.stdout).toMatch(/Next: aureus /);

    // One canonization commit, with trailers, on top of the init commit.
    expect(git(w, 'rev-list', '--count', `${headBefore}..HEAD`)).toBe('1');
    const msg = git(w, 'log', '-1', '--format=%B');
    expect(msg).toMatch(/^play s1: canonize PLAY/);
    expect(msg).toMatch(/Aureus-Session: s1/);
    expect(msg).toMatch(/Aureus-Turns: t\d{4}/);
    const files = git(w, 'show', '--name-only', '--format=', 'HEAD').split('\n');
    expect(files).toContain('seasons/season_01/notes.json');
    expect(files).toContain('seasons/season_01/play/s1/canon_01.json');
    expect(files).toContain('world/relationships.json');

    const canon = JSON.parse(fs.readFileSync(path.join(w, 'seasons/season_01/play/s1/canon_01.json'), 'utf8')) as { deltas: { path: string; provenance: { session: string; scene: string; turns: string[] } }[] };
    expect(canon.deltas.length).toBeGreaterThan(0);
    const log = records(w, 's1');
    const ids = new Set(log.filter((x) => x.type === 'user' || x.type === 'actor').map((x) => x.id));
    for (const d of canon.deltas) {
      expect(d.provenance.session).toBe('s1');
      expect(d.provenance.turns.length).toBeGreaterThan(0);
      for (const t of d.provenance.turns) expect(ids.has(t)).toBe(true);
    }
    // The delta really reached the world file.
    const rel = JSON.parse(fs.readFileSync(path.join(w, 'world/relationships.json'), 'utf8')) as { relationships: { from: string; to: string; weights: Record<string, number> }[] };
    const d0 = canon.deltas[0]!.path.split('.');
    expect(rel.relationships.find((e) => e.from === d0[1] && e.to === d0[2])).toBeDefined();
    const notes = JSON.parse(fs.readFileSync(path.join(w, 'seasons/season_01/notes.json'), 'utf8')) as { notes: { text: string }[] };
    expect(notes.notes).toEqual([{ id: 'n001', text: 'Catiline lies about Faesulae', episode: 's01e01', character: 'cicero', source: 'play' }]);
    // The shared notes module (aureus note) reads what play wrote: schema-valid, addressed to the next episode.
    const { notesFor } = await import('../../src/season/notes.js');
    expect(notesFor(w, 's01e01').map((n) => n.text)).toEqual(['Catiline lies about Faesulae']);

    // The model's directive was executed (a beat) and stripped; no brief anywhere visible.
    expect(log.some((x) => x.type === 'command' && x.name === 'beat' && String(x.effect).includes('model directive'))).toBe(true);
    const show = await cli(['session', 'show', 's1', '--json'], w);
    const list = await cli(['session', 'list'], w);
    expect(list.stdout).toMatch(/^s1 +cicero +PLAY +3 turns +complete/m);
    // Query canon: the value's history names the play session and its turns.
    const hist = await cli(['query', 'history', canon.deltas[0]!.path, '--json'], w);
    expect(hist.code, hist.stderr).toBe(0);
    const h = JSON.parse(hist.stdout) as { session: string | null; turns: string | null }[];
    expect(h.at(-1)).toMatchObject({ session: 's1' });
    expect(h.at(-1)!.turns).toContain(canon.deltas[0]!.provenance.turns[0]);
    const who = await cli(['query', 'character', 'cicero', '--json'], w);
    expect(JSON.parse(who.stdout)).toMatchObject({ id: 'cicero', status: 'alive' });
    expect((await cli(['query', 'knows', 'sec_nope'], w)).code).toBe(2);
    const visible = [r.stdout, r.stderr, show.stdout, fs.readFileSync(path.join(w, 'seasons/season_01/play/s1/canon_01.json'), 'utf8')].join('\n');
    expect(visible).not.toMatch(/DIRECTIVE|director_brief/i);
    const secrets = briefStrings(w, 's1');
    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) expect(visible).not.toContain(s);
  });

  it('--json prints the seed-000 stream events, with director signals and no brief', async () => {
    const w = copyRepo(base(), 'play-json');
    const r = await playScript([...ARGS, '--json'], w, SCRIPT);
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'message_complete')).toHaveLength(3);
    expect(types.slice(-3)).toEqual(['canonized', 'episode_complete', 'done']);
    expect(types).not.toContain('chunk'); // the offline provider answers at once: it never streams
    const m = events.find((e) => e.type === 'message_complete') as unknown as { content: string; structured: Record<string, unknown>; director: Record<string, unknown> };
    expect(Object.keys(m.structured).sort()).toEqual(['action', 'dialogue', 'internal', 'mood', 'speaker', 'tension_shift']);
    expect(m.director).toMatchObject({ turn_count: 1, beat: expect.any(String), completion_eligible: false });
    const done = events.find((e) => e.type === 'episode_complete') as unknown as { trigger: string; evaluation: { key_moments: string[] }; next_suggestion: { command: string } };
    expect(done.trigger).toBe('turn_limit');
    const c = events.find((e) => e.type === 'canonized') as unknown as { commit: string; accepted: string[] };
    expect(c.commit).toBe(git(w, 'rev-parse', 'HEAD'));
    expect(r.stdout).not.toMatch(/DIRECTIVE|director_brief|key_facts/);
    for (const s of briefStrings(w, 's1')) expect(r.stdout).not.toContain(s);
  });

  it('says how many lines of a script came after the scene ended and were not played (text and --json)', async () => {
    // Before, the lines after /end (or the turn limit) were dropped without a word.
    const input = 'Where were you last night?\n/end\nOne more thing.\n\nAnd another.\n';
    const args = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'extra'];
    const t = await playScript(args, copyRepo(base(), 'play-extra-text'), input);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain('Scene complete (user_end)');
    expect(t.stderr).toContain('aureus: the scene ended before 2 more lines of your input: they were not played');
    const j = await playScript([...args, '--json'], copyRepo(base(), 'play-extra-json'), input);
    expect(j.code, j.stderr).toBe(0);
    const events = j.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; message?: string });
    expect(events.slice(-2)).toEqual([{ type: 'notice', message: 'the scene ended before 2 more lines of your input: they were not played' }, expect.objectContaining({ type: 'done' })]);
    // A script that ends with the scene gets no such notice.
    const exact = await playScript(args, copyRepo(base(), 'play-extra-none'), 'Where were you last night?\n/end\n\n');
    expect(exact.code, exact.stderr).toBe(0);
    expect(exact.stderr).not.toContain('not played');
  });

  it('the same script and seed give the same session log and world (offline is deterministic)', async () => {
    const a = copyRepo(base(), 'play-det-a');
    const b = copyRepo(base(), 'play-det-b');
    await playScript(ARGS, a, SCRIPT);
    await playScript(ARGS, b, SCRIPT);
    // Commit ids carry git's timestamps; everything else is byte-identical.
    const norm = (w: string) => fs.readFileSync(path.join(w, '.aureus/sessions/s1/turns.jsonl'), 'utf8').replace(/"commit":"[0-9a-f]{40}"/g, '"commit":"<sha>"');
    expect(norm(a)).toBe(norm(b));
    expect(git(a, 'rev-parse', 'HEAD^{tree}')).toBe(git(b, 'rev-parse', 'HEAD^{tree}'));
  });

  it('--scene plays a planned scene from its stage D packet', async () => {
    const w = copyRepo(base(), 'play-scene');
    expect((await cli(['episode', 'plan'], w)).code).toBe(0);
    const runs = fs.readdirSync(path.join(w, '.aureus/runs'));
    const packet = JSON.parse(fs.readFileSync(path.join(w, '.aureus/runs', runs[0]!, 'packets/SC01.json'), 'utf8')) as { episode_id: string; cast: { id: string }[]; setting: { location_name: string } };
    const [me, ...others] = packet.cast.map((c) => c.id);
    const r = await playScript(['play', '--as', me!, '--scene', `${packet.episode_id}/SC01`, '--mode', 'open', '--session', 'sc'], w, 'What brings you here?\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`SC01 at ${packet.setting.location_name}`);
    expect(r.stdout).toContain('Scene complete (user_end)');
    const start = records(w, 'sc')[0] as { setup: { episode: string; cast: string[] } };
    expect(start.setup).toMatchObject({ episode: packet.episode_id, cast: others });
  });

  it('--scene with a principal outside its cast is a usage error naming the cast (AUR7109), nothing written', async () => {
    const w = copyRepo(base(), 'play-scene-outsider');
    expect((await cli(['episode', 'plan'], w)).code).toBe(0);
    const run = path.join(w, '.aureus/runs', fs.readdirSync(path.join(w, '.aureus/runs'))[0]!);
    const chars = (JSON.parse(fs.readFileSync(path.join(w, 'world/characters.json'), 'utf8')) as { characters: { id: string; status: string }[] }).characters;
    // A scene and a living principal not in its cast: before, the session started and rejected the user's own lines (AUR5012).
    const pick = fs.readdirSync(path.join(run, 'packets')).map((f) => JSON.parse(fs.readFileSync(path.join(run, 'packets', f), 'utf8')) as { episode_id: string; scene_id: string; cast: { id: string }[] })
      .map((p) => ({ p, out: chars.find((c) => c.status === 'alive' && !p.cast.some((x) => x.id === c.id)) }))
      .find((x) => x.out)!;
    const r = await playScript(['play', '--as', pick.out!.id, '--scene', `${pick.p.episode_id}/${pick.p.scene_id}`, '--mode', 'open'], w, 'Who stands with me?\n/end\n');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('AUR7109');
    expect(r.stderr).toContain(`not in the cast of ${pick.p.episode_id}/${pick.p.scene_id} (${pick.p.cast.map((c) => c.id).join(', ')})`);
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);
  });
});
