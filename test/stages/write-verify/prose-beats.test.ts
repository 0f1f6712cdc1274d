import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../../src/domain/packet.js';
import { verifySceneOutput, type SceneVerification } from '../../../src/stages/f-verifier/verify.js';
import { contextOf, packets, usePackets } from './prose-scenes.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { readProse } from '../../../src/stages/f-verifier/prose/reader.js';
import { beatsShown } from '../../../src/stages/f-verifier/rules/prose-beats.js';

// A required change the SCENE_EVENTS declare but the prose never shows (AUR5037): scenes written the way
// Claude writes them for the writer corpus's packets (test/fixtures/prose-beats-shown.json, see its `about`),
// each verified whole, with the events a Writer declares for the beat.
usePackets();

const data = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', 'prose-beats-shown.json'), 'utf8')) as {
  groups: Record<string, string>;
  /** `finding`: where the prose keeps the change off the stage in words (denied, promised, a secret kept), the finding it gives. */
  cases: { group: string; scene: string; body: string; expect: 'shown' | 'doubtful' | 'missing'; miss?: string; finding?: 'hard' | 'soft' }[];
};

/** The packet's one beat as a Writer declares it: an operator event with every required delta, verbatim. */
function eventsOf(p: ScenePacket): unknown[] {
  return p.director_instructions.sequence.map((a, i) => ({
    id: `e${i + 1}`,
    type: 'operator',
    application_id: a.application_id,
    operator_id: a.operator_id,
    actor: a.bindings.actor,
    ...(a.bindings.target ? { target: a.bindings.target } : {}),
    text: a.narrative_directive,
    deltas: p.constraints.required_deltas.filter((d) => d.application_id === a.application_id),
  }));
}

/** A whole answer: the packet's heading and cast, the scene, no claims, the beat's events. */
export function answer(scene: string, body: string): string {
  const p = packets[scene]!;
  const heading = `## ${scene} — INT. ${p.setting.location_name.toUpperCase()} - ${p.setting.time_of_day.toUpperCase()}`;
  return `---SCENE_TEXT---\n${heading}\n\n**Cast:** ${p.cast.map((c) => c.name).join(', ')}\n\n${body}\n\n---CLAIMS---\n[]\n\n---SCENE_EVENTS---\n${JSON.stringify(eventsOf(p), null, 2)}\n`;
}

const verify = (scene: string, body: string): SceneVerification => verifySceneOutput(answer(scene, body), contextOf(scene));
const said = (v: SceneVerification) => v.findings.map((f) => `${f.severity} ${f.code} ${f.message}`).join('\n');
/** How the readers read the scene's declared beats (rules/prose-beats.ts beatsShown). */
function reading(scene: string, body: string): string {
  const ctx = contextOf(scene);
  const p = parseWriterOutput(answer(scene, body));
  return beatsShown(readProse(p, ctx, []), ctx, p.events).map((b) => b.shown).join(',');
}
const beat = (v: SceneVerification) => v.findings.filter((f) => f.code === 'AUR5037');

describe('a required beat declared in SCENE_EVENTS but not shown in the prose (AUR5037)', () => {
  it('puts every case in a group it names, with at least 15 renderings, 10 near misses, and a miss named for every case read against its group', () => {
    for (const c of data.cases) expect(Object.keys(data.groups), c.body).toContain(c.group);
    expect(data.cases.filter((c) => c.group === 'PAID' || c.group === 'TOLD').length).toBeGreaterThanOrEqual(15);
    expect(data.cases.filter((c) => c.group === 'NOT_PAID' || c.group === 'NOT_TOLD').length).toBeGreaterThanOrEqual(10);
    const want: Record<string, string> = { PAID: 'shown', TOLD: 'shown', NOT_PAID: 'doubtful', NOT_TOLD: 'doubtful', MISSING: 'missing', DOUBTFUL: 'doubtful' };
    for (const c of data.cases) expect(c.expect !== want[c.group], c.body).toBe(!!c.miss);
  });

  for (const group of ['PAID', 'TOLD', 'NOT_PAID', 'NOT_TOLD', 'MISSING', 'DOUBTFUL']) {
    it(data.groups[group]!, () => {
      const cases = data.cases.filter((c) => c.group === group);
      expect(cases.length).toBeGreaterThan(0);
      // Every case's reading and findings at once, so a change in the readers shows every case it moves.
      const got = cases.map(({ scene, body }) => {
        const v = verify(scene, body);
        const hard = v.findings.filter((f) => f.severity === 'hard').map((f) => f.code);
        return `${reading(scene, body)}: ${beat(v).map((f) => f.severity).join(',') || 'no AUR5037'}; hard ${hard.join(',') || 'none'}`;
      });
      const finding = (c: (typeof cases)[number]) =>
        c.expect === 'missing' || c.finding === 'hard' ? 'hard; hard AUR5037' : c.finding === 'soft' ? 'soft; hard none' : 'no AUR5037; hard none';
      expect(got.map((g, i) => `${i}: ${g}`)).toEqual(cases.map((c, i) => `${i}: ${c.expect}: ${finding(c)}`));
    });
  }

  it('names the scene, the beat, its event and what the prose must show, with the directive as the fix', () => {
    const v = verify('SC05', data.cases.find((c) => c.group === 'MISSING')!.body);
    const f = beat(v)[0]!;
    expect(f).toMatchObject({ code: 'AUR5037', severity: 'hard', scene: 'SC05', rule: 'prose.beat_not_shown', confidence: 'sure' });
    expect(f.message).toBe('beat b05 (Call in the note) is declared in event e1, but the prose never shows the payment of 3,000 denarii from Publius Clodius Pulcher to Marcus Licinius Crassus');
    expect(f.fix).toContain('Marcus Licinius Crassus names the sum and the day');
  });

  it('reads only the scene text: the event text that pays is no payment on stage', () => {
    // The event says the payment in words; the prose (a MISSING case) shows none of it. Event texts are read as narration at line 0.
    const body = data.cases.find((c) => c.group === 'MISSING')!.body;
    const p = packets.SC05!;
    const raw = answer('SC05', body).replace(JSON.stringify(p.director_instructions.sequence[0]!.narrative_directive), JSON.stringify('Clodius pays Crassus three thousand denarii.'));
    expect(raw).toContain('Clodius pays Crassus three thousand denarii.');
    const v = verifySceneOutput(raw, contextOf('SC05'));
    expect(beat(v).map((f) => f.severity)).toEqual(['hard']);
  });
});
