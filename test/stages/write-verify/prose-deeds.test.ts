import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/domain/scene.js';
import { loadWorldOrThrow } from '../../../src/store/load.js';
import { packageRoot } from '../../../src/paths.js';
import type { VerifyContext } from '../../../src/stages/f-verifier/context.js';
import { finding } from '../../../src/stages/f-verifier/context.js';
import { readPacket } from '../../../src/stages/f-verifier/load.js';
import { worldVerifyContext } from '../../../src/stages/f-verifier/world-context.js';
import { parseWriterOutput, type ParsedWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { readProse, type Reading } from '../../../src/stages/f-verifier/prose/reader.js';
import { payerAt } from '../../../src/stages/f-verifier/prose/deeds.js';
import { prosePresenceRules } from '../../../src/stages/f-verifier/rules/prose-presence.js';
import { proseMoneyRules } from '../../../src/stages/f-verifier/rules/prose-money.js';
import { PAYS, sumsIn, talkedOf } from '../../../src/stages/f-verifier/prose/money.js';
import { spanOf } from '../../../src/stages/f-verifier/prose/span.js';
import { formatAmount } from '../../../src/core/readable.js';

// Issue 18, twelfth pass: a narration sentence's doer is found only when a rule can use it (finding
// it tags the words after each name). The rules must give what the reading in order gave: here the
// presence and money rules as they were (over every deed) are the reference, on every file of the
// real-model corpora and the offline writer's corpus, with their claims and events read as narration.
const FIX = path.resolve(__dirname, '..', '..', 'fixtures');
const W = path.join(FIX, 'writer-corpus');
let base: Omit<VerifyContext, 'packet'>;
const cases: { key: string; parsed: ParsedWriterOutput; ctx: VerifyContext; extra: string[] }[] = [];

beforeAll(async () => {
  const { world } = await loadWorldOrThrow(packageRoot());
  world.characters = JSON.parse(readFileSync(path.join(W, 'world-characters.json'), 'utf8'));
  base = worldVerifyContext(world, []);
  for (const dir of ['prose-corpus', 'prose-corpus-heldout', 'writer-corpus']) {
    const P = path.join(FIX, dir);
    const manifest = JSON.parse(readFileSync(path.join(P, 'manifest.json'), 'utf8')) as { file: string; packet: string }[];
    for (const e of manifest) {
      const parsed = parseWriterOutput(readFileSync(path.join(P, e.file), 'utf8'));
      const texts = (raw: unknown) => (Array.isArray(raw) ? raw.map((x: { text?: unknown } | null) => (typeof x?.text === 'string' ? x.text : '')) : []);
      const extra = [...texts(parsed.claims_raw), ...texts(parsed.events_raw)];
      cases.push({ key: `${dir}/${e.file}`, parsed, ctx: { ...base, packet: readPacket(path.join(W, e.packet)) }, extra });
    }
  }
});

/** The presence rules as they were before the pass: over every deed, found in order. */
function presenceBefore(r: Reading, ctx: VerifyContext): Finding[] {
  const out: Finding[] = [];
  const pk = ctx.packet;
  const cast = pk.cast.map((c) => c.name).join(', ');
  const seen = new Set<string>();
  const once = (key: string, f: () => Finding) => {
    if (!seen.has(key)) {
      seen.add(key);
      out.push(f());
    }
  };
  for (const d of r.deeds) {
    const who = r.index.byId.get(d.id);
    if (!who) continue;
    const sev = d.sure ? 'hard' : 'soft';
    if (d.elsewhere) {
      if (who.inCast && !who.dead) once(`t:${d.id}`, () => finding('AUR5017', sev, pk.scene_id, 'prose.teleport', { name: who.name, location: pk.setting.location_name, place: d.elsewhere! }, spanOf(d, d.elsewhere)));
      continue;
    }
    if (d.offstage) continue;
    // The span points at the doer's name as its sentence writes it.
    const name = r.sentences.find((x) => x.line === d.line && x.text === d.text)?.mentions.find((m) => m.id === d.id)?.text;
    if (who.dead) once(`d:${d.id}`, () => finding('AUR5015', sev, pk.scene_id, 'prose.dead_on_stage', { name: who.name, how: d.how }, spanOf(d, name)));
    else if (!who.inCast && d.line > 0) once(`c:${d.id}`, () => finding('AUR5016', sev, pk.scene_id, 'prose.not_in_cast', { name: who.name, how: d.how, cast }, spanOf(d, name)));
  }
  return out;
}

/** The payer of each narration sentence as the money rule found it before the pass: the last deed told so far. */
function payersBefore(r: Reading): (string | undefined)[] {
  const deeds = r.deeds;
  let payer: string | undefined;
  return r.sentences
    .filter((s) => s.kind === 'narration')
    .map((s) => {
      const deed = deeds.find((d) => d.line === s.line && d.text === s.text);
      if (deed) payer = deed.id;
      return payer;
    });
}

/** The money rule as it was before the pass: the payer is the last deed told so far. */
function moneyBefore(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const balance = new Map(pk.retrieved_subgraph.accounts.map((a) => [a.owner, a.denarii]));
  const richest = Math.max(0, ...pk.cast.map((c) => balance.get(c.id) ?? 0));
  const payers = payersBefore(r);
  const narration = r.sentences.filter((s) => s.kind === 'narration');
  for (let i = 0; i < narration.length; i++) {
    const s = narration[i];
    if (!PAYS.test(s.text) || talkedOf(s.text.replace(/"[^"]*"/g, ''))) continue;
    for (const sum of sumsIn(s.text)) {
      const payer = payers[i];
      const has = payer !== undefined ? balance.get(payer) : undefined;
      if (!(has !== undefined ? sum.denarii > has : sum.denarii > richest)) continue;
      const sure = !sum.doubtful && (sum.denarii > richest || has !== undefined);
      const name = payer ? (r.index.byId.get(payer)?.name ?? payer) : 'the payer';
      return [finding('AUR5022', sure ? 'hard' : 'soft', pk.scene_id, 'prose.overspend', { name, amount: formatAmount(Math.round(sum.denarii)), text: sum.text, balance: formatAmount(has ?? richest) }, spanOf(s, sum.text))];
    }
  }
  return [];
}

describe('doers found on demand', () => {
  it('the presence rules give the findings of the reading in order on every corpus file', () => {
    let found = 0;
    let skipped = 0;
    let named = 0;
    for (const c of cases) {
      const lazy = readProse(c.parsed, c.ctx, c.extra);
      const got = prosePresenceRules(lazy, c.ctx);
      expect(got, c.key).toEqual(presenceBefore(readProse(c.parsed, c.ctx, c.extra), c.ctx));
      found += got.length;
      const left = lazy.narration.filter((n) => n.mentions.length > 0 && n.deed === undefined).length;
      skipped += left;
      named += lazy.narration.filter((n) => n.mentions.length > 0).length;
    }
    // The corpora hold dead, uncast and misplaced doers, and most named sentences (~90%) need no doer.
    expect(found).toBeGreaterThan(25);
    expect(skipped).toBeGreaterThan(named * 0.8);
  });
  it('every narration sentence has the payer the reading in order gave it, and the money rule the same findings', () => {
    let paid = 0;
    for (const c of cases) {
      const r = readProse(c.parsed, c.ctx, c.extra);
      const before = payersBefore(readProse(c.parsed, c.ctx, c.extra));
      expect(r.narration.map((_, i) => payerAt(r.narration, i)), c.key).toEqual(before);
      const got = proseMoneyRules(readProse(c.parsed, c.ctx, c.extra), c.ctx);
      expect(got, c.key).toEqual(moneyBefore(readProse(c.parsed, c.ctx, c.extra), c.ctx));
      paid += got.length;
    }
    expect(paid).toBeGreaterThan(3);
  });
  it('a pronoun said-tag carries the last doer over, found back through sentences that name nobody', () => {
    const pk = readPacket(path.join(W, 'packets', 'SC24.json'));
    const ctx = { ...base, packet: pk };
    const body = 'Terentia slips in through the garden door. The lamp gutters. "Enough," she says.';
    const raw = `---SCENE_TEXT---\n## SC24 — INT. SOMEWHERE - NIGHT\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
    const r = readProse(parseWriterOutput(raw), ctx);
    const said = r.narration.find((n) => n.pronoun)!;
    expect(said.deed).toBeUndefined();
    const f = prosePresenceRules(r, ctx);
    expect(f.map((x) => x.code)).toEqual(['AUR5016']);
    expect(said.deed?.id).toBe(r.deeds[0].id);
    expect(r.deeds.map((d) => d.how)).toEqual(['acts', 'speaks']);
  });
  it('a sum within every named account is judged without finding the payer; one over a payer\'s balance finds it', () => {
    const ctx = { ...base, packet: readPacket(path.join(W, 'packets', 'SC05.json')) };
    const read = (body: string) => readProse(parseWriterOutput(`---SCENE_TEXT---\n## SC05 — INT. SOMEWHERE - NIGHT\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`), ctx);
    // Clodius holds 35,000 and Crassus 4,800,000.
    const small = read('Clodius counts out 20,000 denarii for the porters while Crassus watches.');
    expect(proseMoneyRules(small, ctx)).toEqual([]);
    expect(small.narration[0].deed).toBeUndefined();
    const over = read('Clodius counts out 50,000 denarii for the porters while Crassus watches.');
    expect(proseMoneyRules(over, ctx).map((f) => [f.code, f.severity])).toEqual([['AUR5022', 'hard']]);
    expect(over.narration[0].deed?.id).toBe('clodius');
  });
});
