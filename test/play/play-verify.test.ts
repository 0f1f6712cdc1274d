import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { jsonEvents, playHandler, usePlayModel } from '../support/play-model.js';
import { playScript, records } from './support.js';

/**
 * Stage F at canonization (src/play/verify.ts): the staged proposals are judged against the world
 * as it is when canon is written, by the same rules that judge a compiled scene; the rejected ones
 * are reported in the `canonized` event with the finding, kept with their reasons, and never applied;
 * a finding that names no proposal is shown to the user and kept in the canon record.
 */
type Canonized = { type: string; commit?: string; accepted?: string[]; rejected?: Record<string, string>; scene_findings?: string[] };
const canonizedIn = (stdout: string) => jsonEvents<Canonized>(stdout).find((e) => e.type === 'canonized')!;

describe.skipIf(!builtCli())('aureus play: stage F on the staged proposals', () => {
  const { server, base, env } = usePlayModel('play-verify');

  it('a character who died since the turn was played cannot have acted: the proposal is rejected (AUR5011/AUR5010)', async () => {
    const w = copyRepo(base(), 'play-verify-dead');
    const args = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'v1', '--json'];
    const a = await playScript(args, w, 'Catiline, you will answer me! Where were you?\n');
    expect(a.code, a.stderr).toBe(0);
    const staged = records(w, 'v1').filter((r) => r.type === 'proposal').map((r) => r.proposal as { id: string; actor?: string });
    expect(staged.length).toBeGreaterThan(0);
    expect(staged[0]!.actor).toBe('catiline');
    // Meanwhile an episode kills Catiline (committed canon).
    const file = path.join(w, 'world/characters.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { characters: { id: string; status: string; bdi: { intentions: string[] } }[] };
    const cat = doc.characters.find((c) => c.id === 'catiline')!;
    cat.status = 'dead';
    cat.bdi.intentions = [];
    fs.writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
    git(w, 'commit', '-qam', 'Catiline falls at Pistoria');
    const relBefore = fs.readFileSync(path.join(w, 'world/relationships.json'), 'utf8');

    const b = await playScript(['play', '--resume', 'v1', '--json'], w, '/end\n');
    expect(b.code, b.stderr).toBe(0);
    const ev = canonizedIn(b.stdout);
    for (const p of staged) expect(ev.rejected![p.id]).toMatch(/AUR5011 Marcus Sergius Catilina is dead but acts|AUR5010/);
    expect(ev.accepted).toEqual([]);
    expect(fs.readFileSync(path.join(w, 'world/relationships.json'), 'utf8')).toBe(relBefore);
    const canon = JSON.parse(git(w, 'show', `HEAD:seasons/season_01/play/v1/canon_01.json`)) as { deltas: unknown[]; rejected: { id: string; reason: string }[] };
    expect(canon.deltas).toEqual([]);
    expect(canon.rejected.map((r) => r.id)).toEqual(staged.map((p) => p.id));
    expect(git(w, 'log', '-1', '--format=%B')).toMatch(/Aureus-Rejected: p1/);
  });

  it("an anachronism in the Actor's line rejects what that turn supports; the user's own words are not held to the lexicon", async () => {
    let n = 0;
    server.handler = playHandler('complication', () => {
      n++;
      const dialogue = n === 1 ? 'Okay, Consul, I was at the house of Laeca. Ask anyone.' : 'You shall have your answer in the Senate, and not before.';
      return steps.ok(JSON.stringify({ speaker: 'catiline', action: 'shrugs', dialogue, internal: 'x', mood: 'cold', tension_shift: 0.2 }));
    });
    const w = copyRepo(base(), 'play-verify-lexicon');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '2', '--session', 'v2', '--json'], w, 'Hello Catiline! Where were you last night?\nOkay then, answer me this: who pays you?\n', env());
    expect(r.code, r.stderr).toBe(0);
    const props = records(w, 'v2').filter((x) => x.type === 'proposal').map((x) => x.proposal as { id: string; turns: string[] });
    expect(props.length).toBe(2);
    const ev = canonizedIn(r.stdout);
    // Turn 1's answer says "Okay": its proposal is rejected; turn 2's is not (the user's "Hello"/"Okay" do not count).
    expect(ev.rejected).toEqual({ [props[0]!.id]: expect.stringMatching(/^AUR5050 anachronism "Okay"/) });
    expect(ev.accepted).toEqual([props[1]!.id]);
    expect(ev.scene_findings).toEqual([]);
  });

  it('a finding about the scene that names no proposal (a teleport) is shown at canonization, in text and --json, and kept in the canon record', async () => {
    const w = copyRepo(base(), 'play-verify-scene');
    // Gaius Manlius is at Faesulae, four days from the Forum: the improvised scene puts him there at once.
    const args = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'gaius_manlius', '--mode', 'open'];
    const j = await playScript([...args, '--session', 'v3', '--json'], w, 'Manlius, what news from Etruria?\n/end\n');
    expect(j.code, j.stderr).toBe(0);
    const ev = canonizedIn(j.stdout);
    const teleport = /^AUR5014 Gaius Manlius appears at Forum Romanum but was at faesulae \(4 day\(s\) away, 0 available\)$/;
    expect(ev.scene_findings).toEqual([expect.stringMatching(teleport)]);
    // Not binding: the turn's proposal is still accepted and committed.
    expect(ev.rejected).toEqual({});
    expect(ev.accepted!.length).toBeGreaterThan(0);
    const canon = JSON.parse(git(w, 'show', 'HEAD:seasons/season_01/play/v3/canon_01.json')) as { scene_findings?: string[] };
    expect(canon.scene_findings).toEqual(ev.scene_findings);
    expect(records(w, 'v3').find((r) => r.type === 'canonized')!.scene_findings).toEqual(ev.scene_findings);

    const t = await playScript([...args, '--session', 'v4'], w, 'Manlius, how many men march with you?\n/end\n');
    expect(t.code, t.stderr).toBe(0);
    const lines = t.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('[canon] commit '));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^\[canon\] scene finding \(no proposal rejected\): AUR5014 Gaius Manlius appears at Forum Romanum but was at faesulae/);
  });
});
