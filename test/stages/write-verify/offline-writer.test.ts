import { describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../../src/domain/packet.js';
import { critique } from '../../../src/providers/offline/critic.js';
import { DEFECT_CODES, DEFECT_KINDS, chaosRateFor, offlineWrite, renderScene } from '../../../src/providers/offline/writer.js';
import { RHETORIC, THRILLER_BEATS } from '../../../src/providers/offline/writer-phrases.js';
import { buildWriterRequest } from '../../../src/stages/e-writer/prompt.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import type { WriterPayload } from '../../../src/stages/e-writer/types.js';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { findAnachronisms } from '../../../src/style/lexicon.js';
import { loadStyle } from '../../../src/style/index.js';
import { packageRoot } from '../../../src/paths.js';
import { ctx, lexicon, packet } from './helpers.js';

const style = { guide: 'guide', lexicon: lexicon() };
const payload = (p: ScenePacket, seed = 's1', attempt = 1, extra: Partial<WriterPayload> = {}): WriterPayload => ({
  ...(buildWriterRequest(p, style, { seed, attempt, mode: 'write' }).payload as WriterPayload),
  ...extra,
});

function streetPacket(): ScenePacket {
  const p = packet();
  return { ...p, setting: { ...p.setting, location: 'forum', location_name: 'Forum Romanum', kind: 'street', time_of_day: 'day' } };
}

describe('offline writer', () => {
  it('is deterministic per (seed, scene, attempt) and varies with each', () => {
    const a = renderScene(payload(packet(), 's1'));
    expect(renderScene(payload(packet(), 's1'))).toBe(a);
    expect(renderScene(payload(packet(), 's2'))).not.toBe(a);
    expect(renderScene(payload(packet(), 's1', 2))).not.toBe(a);
  });

  it('writes exactly the three sections of spec 6.3 in the screenplay format, and passes every rule', () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const raw = renderScene(payload(packet(), seed));
      expect(raw.match(/^---(SCENE_TEXT|CLAIMS|SCENE_EVENTS)---$/gm)).toEqual(['---SCENE_TEXT---', '---CLAIMS---', '---SCENE_EVENTS---']);
      const p = parseWriterOutput(raw);
      expect(p.scene_text.split('\n')[0]).toBe('## SC04 — INT. VILLA OF CRASSUS - NIGHT');
      expect(p.scene_text.split('\n')[2]).toBe('**Cast:** Marcus Crassus, Marcus Tullius Cicero, Tertulla');
      expect(p.scene_text).toMatch(/^> (CRASSUS|CICERO|TERTULLA): /m);
      const v = verifySceneOutput(raw, ctx());
      expect(v.findings).toEqual([]);
      // The canonical form: nothing for the normaliser to read differently, no form error.
      expect(v.normalisations).toEqual([]);
      expect(v.form_errors).toEqual([]);
      expect(critique({ task: 'critique_scene', packet: packet(), scene_text: p.scene_text, claims: p.claims, events: p.events }).verdict).toBe('PASS');
    }
  });

  it('uses a rhetorical device in a villa and thriller mode in the street', () => {
    const devices = Object.values(RHETORIC).flat();
    const villa = parseWriterOutput(renderScene(payload(packet()))).scene_text;
    expect(devices.some((d) => villa.includes(d))).toBe(true);
    const street = parseWriterOutput(renderScene(payload(streetPacket()))).scene_text;
    expect(street.split('\n')[0]).toBe('## SC04 — EXT. FORUM ROMANUM - DAY');
    expect(devices.some((d) => street.includes(d))).toBe(false);
    expect(THRILLER_BEATS.some((b) => street.includes(b))).toBe(true);
  });

  it('never writes a lexicon word, even when a sample line has one', async () => {
    const st = await loadStyle(packageRoot());
    expect(st.lexicon.length).toBeGreaterThan(20);
    const p = packet();
    p.cast[0].sample_lines = ['Okay, give me five minutes and a clock.'];
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const req = buildWriterRequest(p, { guide: st.guide, lexicon: st.lexicon }, { seed, attempt: 1, mode: 'write' });
      const text = parseWriterOutput(offlineWrite(req).text).scene_text;
      expect(findAnachronisms(text, st.lexicon)).toEqual([]);
    }
  });

  it.each(DEFECT_KINDS)('plants a realistic %s defect that the verifier catches', (kind) => {
    const raw = renderScene(payload(packet()), { defect: kind });
    const codes = verifySceneOutput(raw, ctx()).findings.map((f) => f.code);
    expect(codes.some((c) => DEFECT_CODES[kind].includes(c))).toBe(true);
  });

  it('injects defects at the chaos rate on first drafts and converges on repairs', () => {
    let failed = 0;
    const n = 200;
    for (let i = 0; i < n; i++) {
      const raw = renderScene(payload(packet(), `seed${i}`), { chaos: 0.3 });
      if (verifySceneOutput(raw, ctx()).findings.length) failed++;
    }
    expect(failed / n).toBeGreaterThan(0.2);
    expect(failed / n).toBeLessThan(0.4);
    expect(chaosRateFor(1, 0.3)).toBe(0.3);
    expect(chaosRateFor(2, 0.3)).toBeCloseTo(0.1);
    expect(chaosRateFor(3, 0.3)).toBe(0);
    for (let i = 0; i < 50; i++) {
      const raw = renderScene(payload(packet(), `seed${i}`, 3, { mode: 'regenerate' }), { chaos: 1 });
      expect(verifySceneOutput(raw, ctx()).findings).toEqual([]);
    }
  });

  it('never plants a defect a repair prompt prohibits', () => {
    for (let i = 0; i < 60; i++) {
      const raw = renderScene(payload(packet(), `p${i}`, 2, { mode: 'regenerate', prohibited_codes: ['AUR5010', 'AUR5050'] }), { chaos: 1 });
      const codes = verifySceneOutput(raw, ctx()).findings.map((f) => f.code);
      expect(codes).not.toContain('AUR5010');
      expect(codes).not.toContain('AUR5050');
    }
  });

  it('the offline critic fails a scene that trails off or skips a beat', () => {
    const raw = renderScene(payload(packet()), { defect: 'no_hook' });
    const p = parseWriterOutput(raw);
    const v = critique({ task: 'critique_scene', packet: packet(), scene_text: p.scene_text, claims: p.claims, events: p.events });
    expect(v.verdict).toBe('FAIL');
    expect(v.violations.map((x) => x.type)).toEqual(['hook']);
    const v2 = critique({ task: 'critique_scene', packet: packet(), scene_text: p.scene_text.split('\n').slice(0, 8).join('\n') + '\nDone.', claims: [], events: [] });
    expect(v2.violations.map((x) => x.type)).toEqual(['plan_compliance', 'plan_compliance', 'delta_coverage', 'delta_coverage', 'delta_coverage']);
  });
});
