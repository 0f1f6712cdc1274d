import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../../src/domain/packet.js';
import { verifySceneOutput, type SceneVerification } from '../../../src/stages/f-verifier/verify.js';
import { contextOf, packets, usePackets } from './prose-scenes.js';

// A required change the SCENE_EVENTS declare but the prose never shows (AUR5037): scenes written the way
// Claude writes them for the writer corpus's packets (test/fixtures/prose-beats-shown.json, see its `about`),
// each verified whole, with the events a Writer declares for the beat.
usePackets();

const data = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', 'prose-beats-shown.json'), 'utf8')) as {
  groups: Record<string, string>;
  cases: { group: string; scene: string; body: string }[];
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
const beat = (v: SceneVerification) => v.findings.filter((f) => f.code === 'AUR5037');

describe('a required beat declared in SCENE_EVENTS but not shown in the prose (AUR5037)', () => {
  it('puts every case in a group it names, with at least 15 renderings and 10 deletions or near misses', () => {
    for (const c of data.cases) expect(Object.keys(data.groups), c.body).toContain(c.group);
    expect(data.cases.filter((c) => c.group === 'PAID' || c.group === 'TOLD').length).toBeGreaterThanOrEqual(15);
    expect(data.cases.filter((c) => c.group === 'NOT_PAID' || c.group === 'NOT_TOLD').length).toBeGreaterThanOrEqual(10);
  });

  for (const group of ['PAID', 'TOLD']) {
    it(data.groups[group]!, () => {
      for (const { scene, body } of data.cases.filter((c) => c.group === group)) {
        const v = verify(scene, body);
        expect(beat(v), `${body}\n---\n${said(v)}`).toEqual([]);
        expect(v.hard, `${body}\n---\n${said(v)}`).toBe(false);
      }
    });
  }

  for (const group of ['NOT_PAID', 'NOT_TOLD']) {
    it(data.groups[group]!, () => {
      for (const { scene, body } of data.cases.filter((c) => c.group === group)) {
        const v = verify(scene, body);
        const hard = v.findings.filter((f) => f.severity === 'hard');
        expect(hard.map((f) => f.code), `${body}\n---\n${said(v)}`).toEqual(['AUR5037']);
      }
    });
  }

  it(data.groups.DOUBTFUL!, () => {
    for (const { scene, body } of data.cases.filter((c) => c.group === 'DOUBTFUL')) {
      const v = verify(scene, body);
      expect(beat(v).map((f) => f.severity), `${body}\n---\n${said(v)}`).toEqual(['soft']);
      expect(v.hard, `${body}\n---\n${said(v)}`).toBe(false);
    }
  });

  it('names the scene, the beat, its event and what the prose must show, with the directive as the fix', () => {
    const v = verify('SC05', data.cases.find((c) => c.group === 'NOT_PAID')!.body);
    const f = beat(v)[0]!;
    expect(f).toMatchObject({ code: 'AUR5037', severity: 'hard', scene: 'SC05', rule: 'prose.beat_not_shown', confidence: 'sure' });
    expect(f.message).toBe('beat b05 (Call in the note) is declared in event e1, but the prose never shows the payment of 3,000 denarii from Publius Clodius Pulcher to Marcus Licinius Crassus');
    expect(f.fix).toContain('Marcus Licinius Crassus names the sum and the day');
    const t = beat(verify('SC02', data.cases.find((c) => c.group === 'NOT_TOLD')!.body))[0]!;
    expect(t.message).toBe('beat b02 (Betrayal) is declared in event e1, but the prose never shows the secret sec_murena_bribes told to Marcus Porcius Cato');
  });
});
