import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, editJson, git, spawnCli } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';

/**
 * What a resumed session plays from (the audit of play's resume): the packet it pinned at its
 * start, whatever a later plan or episode run wrote; a start record naming another session, a
 * character the world no longer has, or one who died since, each handled before anything is written.
 */
const LOG = (w: string, id: string) => path.join(w, '.aureus/sessions', id, 'turns.jsonl');
type Event = { type: string; message?: string; accepted?: string[]; rejected?: Record<string, string> };
const events = (out: string): Event[] => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Event);

describe.skipIf(!builtCli())('play --resume of a planned scene plays the packet it started with', () => {
  const base = useWorld('play-pinned');

  it('an episode run that rewrites SC07 does not change the resumed session: its turns are accepted as they would have been', async () => {
    const w = copyRepo(base(), 'pinned-run');
    expect((await spawnCli(['episode', 'plan'], w)).code).toBe(0);
    const start = await playScript(['play', '--as', 'cicero', '--scene', 'SC07', '--session', 'sp1'], w, 'Caesar, what news?\n');
    expect(start.code, start.stderr).toBe(0);
    const plan = fs.readdirSync(path.join(w, '.aureus/runs')).find((d) => d.startsWith('s01e01-'))!;
    expect(records(w, 'sp1')[0]!.packet).toEqual(JSON.parse(fs.readFileSync(path.join(w, '.aureus/runs', plan, 'packets/SC07.json'), 'utf8')));
    expect(records(w, 'sp1')[0]!.packet_file).toBe(`.aureus/runs/${plan}/packets/SC07.json`);
    // The committed s01e01 of another seed: its SC07 has another cast, without Cicero.
    expect((await spawnCli(['episode', 'run', '--seed', 'other'], w)).code).toBe(0);
    const committed = JSON.parse(fs.readFileSync(path.join(w, 'seasons/season_01/episode_01/packets/SC07.json'), 'utf8')) as { cast: { id: string }[] };
    expect(committed.cast.map((c) => c.id)).not.toContain('cicero');

    const r = await playScript(['play', '--resume', 'sp1', '--json'], w, 'Caesar, you are in debt up to your neck, traitor!\nYou are a liar!\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    const canon = events(r.stdout).find((e) => e.type === 'canonized')!;
    expect(canon.rejected).toEqual({});
    expect(canon.accepted).toContain('p1');
  });

  it('a new session takes the most recent plan, not the last folder by name, and says which when several hold the scene', async () => {
    const w = copyRepo(base(), 'pinned-two-plans');
    expect((await spawnCli(['episode', 'plan', '--seed', 'bbb'], w)).code).toBe(0);
    await new Promise((r) => setTimeout(r, 20));
    expect((await spawnCli(['episode', 'plan', '--seed', 'aaa'], w)).code).toBe(0);
    const runs = fs.readdirSync(path.join(w, '.aureus/runs'));
    const aaa = runs.find((d) => d.includes('-aaa-'))!;
    const bbb = runs.find((d) => d.includes('-bbb-'))!;
    const packetOf = (run: string) => JSON.parse(fs.readFileSync(path.join(w, '.aureus/runs', run, 'packets/SC07.json'), 'utf8')) as { cast: { id: string }[] };
    const as = packetOf(aaa).cast[0]!.id;
    const r = await playScript(['play', '--as', as, '--scene', 'SC07', '--session', 's2', '--json'], w, '/status\n');
    expect(r.code, r.stderr).toBe(0);
    expect(records(w, 's2')[0]!.packet).toEqual(packetOf(aaa));
    const said = events(r.stdout).find((e) => e.type === 'notice' && e.message?.startsWith('SC07: playing'));
    expect(said?.message).toContain(`.aureus/runs/${aaa}/packets/SC07.json, the packet of the most recent plan`);
    expect(said?.message).toContain(`.aureus/runs/${bbb}/packets/SC07.json`);
    // A plan made later (bbb again) is not what the paused session resumes with.
    expect((await spawnCli(['episode', 'plan', '--seed', 'bbb'], w)).code).toBe(0);
    const again = await playScript(['play', '--resume', 's2', '--json'], w, '/scene\n');
    expect(again.code, again.stderr).toBe(0);
    expect(records(w, 's2')[0]!.packet).toEqual(packetOf(aaa));
  });

  it('a log from before pinned packets still resumes, looking the scene up once, with a notice', async () => {
    const w = copyRepo(base(), 'pinned-old-log');
    expect((await spawnCli(['episode', 'plan'], w)).code).toBe(0);
    expect((await playScript(['play', '--as', 'cicero', '--scene', 'SC07', '--session', 'old'], w, 'Caesar, what news?\n')).code).toBe(0);
    const lines = fs.readFileSync(LOG(w, 'old'), 'utf8').split('\n');
    const { packet: _p, packet_file: _f, ...start } = JSON.parse(lines[0]!) as Record<string, unknown>;
    fs.writeFileSync(LOG(w, 'old'), [JSON.stringify(start), ...lines.slice(1)].join('\n'));
    const r = await playScript(['play', '--resume', 'old', '--json'], w, 'Caesar, speak!\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(events(r.stdout)[0]!.message).toMatch(/^session old began before sessions kept their scene packet: SC07 is played from \.aureus\/runs\/s01e01-.*\/packets\/SC07\.json/);
    expect(events(r.stdout).find((e) => e.type === 'canonized')!.rejected).toEqual({});
  });

  it('a pinned packet edited into another scene is refused when the log is read (exit 3, at its line:column)', async () => {
    const w = copyRepo(base(), 'pinned-edited');
    expect((await spawnCli(['episode', 'plan'], w)).code).toBe(0);
    expect((await playScript(['play', '--as', 'cicero', '--scene', 'SC07', '--session', 'ed'], w, 'Caesar?\n')).code).toBe(0);
    fs.writeFileSync(LOG(w, 'ed'), fs.readFileSync(LOG(w, 'ed'), 'utf8').replace('"scene_id":"SC07"', '"scene_id":"SC08"'));
    const before = fs.readFileSync(LOG(w, 'ed'), 'utf8');
    const r = await playScript(['play', '--resume', 'ed'], w, 'Caesar, speak!\n');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/\.aureus\/sessions\/ed\/turns\.jsonl\n[^]*AUR6201[^]*1:\d+ \/packet\/scene_id: error AUR6208 the pinned scene packet is s01e01\/SC08's, not the session's scene s01e01\/SC07/);
    expect(fs.readFileSync(LOG(w, 'ed'), 'utf8')).toBe(before);
  });
});

describe.skipIf(!builtCli())('play --resume against the world as it stands now', () => {
  const base = useWorld('play-resume-world');

  it('a start record naming a character the world does not have is exit 3 at its line:column and pointer, not a crash', async () => {
    const w = copyRepo(base(), 'resume-ghost');
    expect((await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'g1'], w, 'Hello Catiline\n')).code).toBe(0);
    const text = fs.readFileSync(LOG(w, 'g1'), 'utf8');
    fs.writeFileSync(LOG(w, 'g1'), text.replace('"cast":["catiline"]', '"cast":["ghost"]'));
    const col = fs.readFileSync(LOG(w, 'g1'), 'utf8').indexOf('"ghost"') + 1;
    const before = fs.readFileSync(LOG(w, 'g1'), 'utf8');
    const r = await playScript(['play', '--resume', 'g1'], w, '/end\n');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).toContain(`.aureus/sessions/g1/turns.jsonl\n  1:${col} /setup/cast/0: error AUR6209 the session's cast member "ghost" is not in world/characters.json`);
    expect(r.stderr).toContain('hint: it was removed from the world');
    const j = await playScript(['play', '--resume', 'g1', '--json'], w, '/end\n');
    expect(j.code).toBe(3);
    expect(JSON.parse(j.stdout.trim().split('\n').at(-1)!).error.codes).toEqual(['AUR6209']);
    expect(fs.readFileSync(LOG(w, 'g1'), 'utf8')).toBe(before);

    fs.writeFileSync(LOG(w, 'g1'), text.replace('"principal":"cicero"', '"principal":"zzz"'));
    const p = await playScript(['play', '--resume', 'g1'], w, '/end\n');
    expect(p.code).toBe(3);
    expect(p.stderr).toMatch(/1:\d+ \/setup\/principal: error AUR6209 the session's principal "zzz" is not in world\/characters\.json/);
  });

  it('a principal who died since is refused (AUR7102, exit 2); a dead cast member leaves the stage with a notice', async () => {
    const w = copyRepo(base(), 'resume-dead');
    expect((await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--session', 'd1'], w, 'Hello Catiline\n')).code).toBe(0);
    expect((await playScript(['play', '--as', 'catiline', '--at', 'forum', '--with', 'crassus', '--session', 'd2'], w, 'Hello Crassus\n')).code).toBe(0);
    editJson(w, 'world/characters.json', (v) => {
      const c = v.characters.find((x: { id: string }) => x.id === 'catiline');
      c.status = 'dead';
      c.bdi.intentions = [];
    });
    expect((await spawnCli(['validate'], w)).code).toBe(0);
    git(w, 'commit', '-qam', 'catiline dies');
    const head = git(w, 'rev-parse', 'HEAD');

    const d2log = fs.readFileSync(LOG(w, 'd2'), 'utf8');
    const d2 = await playScript(['play', '--resume', 'd2'], w, 'Crassus, the plan\n/end\n');
    expect(d2.code).toBe(2);
    expect(d2.stderr).toContain("error AUR7102 session d2's principal catiline: Lucius Sergius Catilina is dead and cannot be played");
    expect(d2.stderr).toContain('`aureus session show d2` reads it');
    expect(fs.readFileSync(LOG(w, 'd2'), 'utf8')).toBe(d2log);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);

    const d1 = await playScript(['play', '--resume', 'd1', '--json'], w, 'Catiline, answer me!\n/end\n');
    expect(d1.code, d1.stderr).toBe(0);
    const ev = events(d1.stdout);
    expect(ev[0]!.message).toBe('catiline leaves the scene: Lucius Sergius Catilina is dead in the world as committed now');
    expect(d1.stdout).not.toMatch(/"content":"CATILINE:/);
    expect(ev.find((e) => e.type === 'canonized')!.rejected).toEqual({});
    // Recorded: a later replay (session show, another resume) has him gone too.
    expect(records(w, 'd1').some((r) => r.type === 'command' && r.name === 'leave' && r.args === 'catiline')).toBe(true);
  });

  it('a session folder whose start record names another session is unreadable, and the other log is not touched', async () => {
    const w = copyRepo(base(), 'resume-copy');
    expect((await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'orig'], w, 'Hello Catiline\n')).code).toBe(0);
    fs.cpSync(path.join(w, '.aureus/sessions/orig'), path.join(w, '.aureus/sessions/copy'), { recursive: true });
    const orig = fs.readFileSync(LOG(w, 'orig'), 'utf8');
    const r = await playScript(['play', '--resume', 'copy'], w, 'Second line, Catiline\n');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error AUR6201 session copy cannot be read: its start record names session orig');
    expect(r.stderr).toContain('1:17 /session: error AUR6207 the start record names session orig, but the log is in the folder of session copy');
    expect(fs.readFileSync(LOG(w, 'orig'), 'utf8')).toBe(orig);
    expect(fs.readFileSync(LOG(w, 'copy'), 'utf8')).toBe(orig);
    const show = await spawnCli(['session', 'show', 'copy'], w);
    expect(show.code).toBe(3);
    expect(show.stdout).not.toContain('session orig');
    const list = await spawnCli(['session', 'list', '--json'], w);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/"session":\s*"copy"[^}]*"state":\s*"unreadable"/);
  });
});
