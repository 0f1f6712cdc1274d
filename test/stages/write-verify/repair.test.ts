import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EpisodePlan } from '../../../src/domain/plan.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { World } from '../../../src/domain/world.js';
import type { Llm, LlmRequest, LlmResponse } from '../../../src/ports/llm.js';
import { offlineCritique } from '../../../src/providers/offline/critic.js';
import { offlineWrite } from '../../../src/providers/offline/writer.js';
import { offlineFormatFix } from '../../../src/providers/offline/format_fix.js';
import type { FormatFixPayload } from '../../../src/stages/g-repair/format-fix.js';
import type { WriterPayload } from '../../../src/stages/e-writer/types.js';
import { writeEpisodeScenes } from '../../../src/stages/scenes.js';
import { fixture, lexicon, packet } from './helpers.js';

/**
 * The repair loop driven by a scripted writer: an Llm (the port) whose writer answers come from
 * a per-scene script of fixture texts, and whose critic is the real offline critic. Every request
 * is recorded, so the tests can read the prompts the loop built.
 */
class ScriptedLlm implements Llm {
  readonly deterministic = true;
  readonly providerId = 'scripted';
  readonly requests: LlmRequest[] = [];
  constructor(
    private readonly script: (scene: string, attempt: number, req: LlmRequest) => string,
    // The format fixer: the offline one unless a test plays a different small model.
    private readonly fixer: (req: LlmRequest) => string = (req) => offlineFormatFix(req).text,
    // The critic: the offline one unless a test plays a stricter one.
    private readonly critic: (req: LlmRequest) => { text: string; json: unknown } = (req) => offlineCritique(req),
  ) {}
  async complete(req: LlmRequest): Promise<LlmResponse> {
    this.requests.push(req);
    const base = { usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0, provider: 'scripted', stop_reason: 'end_turn', latency_ms: 0, cached: false };
    if (req.role === 'critic') return { ...base, ...this.critic(req), model: req.escalate ? 'big-critic' : 'critic-model' };
    if (req.role === 'format_fix') return { ...base, text: this.fixer(req), model: 'fixer-model' };
    const p = req.payload as WriterPayload;
    // Delay inversely to scene order, so completion order differs from scene order.
    await new Promise((r) => setTimeout(r, (9 - p.packet.number) * 3));
    return { ...base, text: this.script(p.packet.scene_id, p.attempt, req), model: req.escalate ? 'big-model' : 'writer-model' };
  }
  writerRequests(scene: string): LlmRequest[] {
    return this.requests.filter((r) => r.role === 'writer' && (r.payload as WriterPayload).packet.scene_id === scene);
  }
}

function scenePacket(n: number): ScenePacket {
  const p = packet();
  const id = `SC${String(n).padStart(2, '0')}`;
  return { ...p, scene_id: id, number: n };
}

/** A line the dead Catilina speaks (the fixtures' world has him dead). */
const DEAD_LINE = fixture('dead_speaks.txt').split('\n').find((l) => l.startsWith('> CATILIN'))!;

/** Fixture texts are written for SC04; re-label them for another scene. */
const as = (file: string, scene: string) => fixture(file).replace(/SC04/g, scene);

const world = { threads: { format: 1, threads: [] }, characters: { format: 1, characters: [] }, world: { locations: [], travel: [] }, canon: { format: 1, facts: [] } } as unknown as World;
const plan = { episode_id: 's01e01', episode: 1, beats: [] } as unknown as EpisodePlan;
const style = { guide: 'Short sentences in the street.', lexicon: lexicon() };

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function run(llm: Llm, packets: ScenePacket[], budgets = { per_scene: 2, per_episode: 12 }, concurrency = 4, draftDir?: string) {
  return writeEpisodeScenes({ llm, plan, packets, world, style, budgets, concurrency, seed: 's', draftDir });
}

describe('stage G: budgeted repair', () => {
  it('regenerates a deterministic failure with explicit prohibitions at the top of the prompt', async () => {
    const llm = new ScriptedLlm((s, a) => (a === 1 ? as('dead_speaks.txt', s) : as('clean.txt', s)));
    const res = await run(llm, [scenePacket(4)]);
    expect(res.ok).toBe(true);
    const [r1, r2] = llm.writerRequests('SC04');
    expect(r1.messages[0].content.startsWith('LENGTH: about 30 pages (6000 words).\n\nSCENE_PACKET:')).toBe(true);
    expect(r2.messages[0].content.split('\n')[0]).toBe('PROHIBITIONS (your previous draft broke these rules; obey every one):');
    expect(r2.messages[0].content.split('\n')[1]).toBe('- Lucius Sergius Catilina is dead but speaks. Remove every line spoken by Lucius Sergius Catilina; the dead may only be mentioned.');
    expect((r2.payload as WriterPayload).prohibited_codes).toEqual(['AUR5010']);
    expect(r2.escalate).toBeUndefined();
    const sc = res.report.scenes[0];
    expect(sc.attempts.map((a) => [a.mode, a.verdict])).toEqual([['write', 'FAIL'], ['regenerate', 'PASS']]);
    expect(sc.attempts[0].critic).toBeNull();
    expect(sc.attempts[1].critic?.verdict).toBe('PASS');
    expect(res.report.budget.used).toBe(1);
    expect(res.scenes[0].attempts).toBe(2);
  });

  it('writes marquee scenes with the escalation model from the first attempt', async () => {
    const llm = new ScriptedLlm((s) => as('clean.txt', s));
    const res = await run(llm, [{ ...scenePacket(1), marquee: true }, scenePacket(2)]);
    expect(llm.writerRequests('SC01').map((r) => r.escalate)).toEqual([true]);
    expect(llm.writerRequests('SC02').map((r) => r.escalate)).toEqual([undefined]);
    expect(res.report.scenes.map((s) => s.attempts[0].model)).toEqual(['big-model', 'writer-model']);
  });

  it('restates the required deltas after a plan-compliance failure', async () => {
    const llm = new ScriptedLlm((s, a) => (a === 1 ? as('required_missing.txt', s) : as('clean.txt', s)));
    await run(llm, [scenePacket(4)]);
    const r2 = llm.writerRequests('SC04')[1];
    expect((r2.payload as WriterPayload).restate_deltas).toBe(true);
    expect(r2.messages[0].content).toContain('REQUIRED_DELTAS (each must happen on screen');
    expect(r2.messages[0].content).toContain("- a05: characters.cicero.stats.fama subtract 3 (Cicero's fama falls)");
  });

  it('asks for strict JSON after a format failure the format fix could not mend without touching the prose', async () => {
    // A fixer that "improves" the prose while it fixes the form: discarded, the scene is regenerated.
    const llm = new ScriptedLlm(
      (s, a) => (a === 1 ? as('claims_unparseable.txt', s) : as('clean.txt', s)),
      (req) => offlineFormatFix(req).text.replace('You overreach.', 'You overreach, Consul.'),
    );
    const res = await run(llm, [scenePacket(4)]);
    const first = res.report.scenes[0].attempts[0];
    expect(first.format_fix).toMatchObject({ raw_file: 'drafts/SC04.1.fix.txt', model: 'fixer-model', outcome: 'prose_changed' });
    expect(first.findings.map((f) => f.code)).toContain('AUR5002');
    expect(res.report.budget.by_kind).toEqual({ regenerate: 1, punch_up: 0, simplified: 0, format_fix: 1 });
    const r2 = llm.writerRequests('SC04')[1];
    expect((r2.payload as WriterPayload).strict_json).toBe(true);
    expect(r2.messages[0].content).toContain('FORMAT: the CLAIMS and SCENE_EVENTS sections must each be one strict JSON array');
  });

  it('answers a quality failure with a punch-up of the last 30-40% only, through the offline writer', async () => {
    const llm = new ScriptedLlm((s, a, req) => (a === 1 ? as('no_hook.txt', s) : offlineWrite(req, { seed: 's' }).text));
    const res = await run(llm, [scenePacket(4)]);
    expect(res.ok).toBe(true);
    const sc = res.report.scenes[0];
    expect(sc.attempts[0].findings.map((f) => f.code)).toEqual(['AUR5060', 'AUR5061']);
    expect(sc.attempts[1].mode).toBe('punch_up');
    const p2 = llm.writerRequests('SC04')[1].payload as WriterPayload;
    const first = as('no_hook.txt', 'SC04').split('---SCENE_TEXT---\n')[1].split('\n\n---CLAIMS---')[0].split('\n');
    const kept = p2.keep_text!.split('\n');
    expect(kept.length / first.length).toBeGreaterThanOrEqual(0.6);
    expect(kept.length / first.length).toBeLessThanOrEqual(0.7);
    expect(res.scenes[0].text.startsWith(p2.keep_text!)).toBe(true);
    expect(res.scenes[0].events.map((e) => e.id)).toEqual(['e1', 'e2']);
  });

  it('accepts a scene only the critic keeps failing for manual review once its punch-ups are spent; the third look is the escalation critic', async () => {
    const strict = { verdict: 'FAIL', violations: [{ type: 'voice', rule: 'register', severity: 'major', message: 'modern speech' }], warnings: [], fix_instructions: ['Roman turns of phrase.'] };
    const llm = new ScriptedLlm(
      (s, a, req) => (a === 1 ? as('clean.txt', s) : offlineWrite(req, { seed: 's' }).text),
      undefined,
      (req) => ((req.payload as { packet: ScenePacket }).packet.scene_id === 'SC02' ? { text: JSON.stringify(strict), json: strict } : offlineCritique(req)),
    );
    const res = await run(llm, [scenePacket(1), scenePacket(2)]);
    expect(res.ok).toBe(true);
    expect(res.report.verdict).toBe('PASS');
    expect(res.report.manual_review).toEqual(['SC02']);
    const sc = res.report.scenes[1];
    expect(sc.attempts.map((a) => [a.mode, a.verdict, a.critic?.verdict])).toEqual([['write', 'FAIL', 'FAIL'], ['punch_up', 'FAIL', 'FAIL'], ['punch_up', 'FAIL', 'FAIL']]);
    expect(sc).toMatchObject({ final_verdict: 'PASS', manual_review: true, review_reason: 'the critic still fails it after 2 repair(s)' });
    expect(llm.requests.filter((r) => r.role === 'critic' && r.meta?.scene === 'SC02').map((r) => Boolean(r.escalate))).toEqual([false, false, true]);
    expect(res.scenes.map((s) => s.scene)).toEqual(['SC01', 'SC02']);
    expect(res.report.budget.by_kind).toEqual({ regenerate: 0, punch_up: 2, simplified: 0, format_fix: 0 });
  });

  it('accepts the last draft without a hard finding for manual review when later repairs keep one', async () => {
    const strict = { verdict: 'FAIL', violations: [{ type: 'hook', rule: 'button_line', message: 'flat ending' }], warnings: [], fix_instructions: ['End on a turn.'] };
    // Draft 1 is clean but the critic fails it; the punch-up keeps the opening but brings a dead man to speak, and so do the rewrites.
    const punchUp = (p: WriterPayload) => `---SCENE_TEXT---\n${p.keep_text}\n\n${DEAD_LINE}\n> CRASSUS: Burn it.\n\n---CLAIMS---\n${p.keep_claims_json}\n\n---SCENE_EVENTS---\n${p.keep_events_json}\n`;
    const llm = new ScriptedLlm(
      (s, a, req) => (a === 1 ? as('clean.txt', s) : (req.payload as WriterPayload).mode === 'punch_up' ? punchUp(req.payload as WriterPayload) : as('dead_speaks.txt', s)),
      undefined,
      () => ({ text: JSON.stringify(strict), json: strict }),
    );
    const res = await run(llm, [scenePacket(4)]);
    expect(res.ok).toBe(true);
    const sc = res.report.scenes[0];
    expect(sc.attempts.map((a) => a.mode)).toEqual(['write', 'punch_up', 'regenerate', 'simplified']);
    expect(sc.attempts[1]).toMatchObject({ kept_opening: 'verbatim', verdict: 'FAIL' });
    expect(sc.attempts[1].findings.map((f) => f.code)).toContain('AUR5010');
    expect(sc).toMatchObject({ final_verdict: 'PASS', manual_review: true, review_reason: 'its repairs kept a hard finding; attempt 1 had none' });
    expect(res.scenes[0].text).toBe(as('clean.txt', 'SC04').split('---SCENE_TEXT---\n')[1]!.split('\n\n---CLAIMS---')[0]);
    expect(res.scenes[0].attempts).toBe(4);
  });

  it('refuses a punch-up that rewrote the opening it had to keep: the scene keeps its previous draft', async () => {
    const strict = { verdict: 'FAIL', violations: [{ type: 'hook', rule: 'button_line', message: 'flat ending' }], warnings: [], fix_instructions: ['End on a turn.'] };
    // A scene written anew under the same heading: nothing of the kept opening after it.
    const clean = as('clean.txt', 'SC04');
    const anew = clean.replace(/(---SCENE_TEXT---\n[^\n]*\n)[\s\S]*?(\n\n---CLAIMS---)/, '$1\nA different scene entirely.\n> CRASSUS: Burn it.$2');
    const llm = new ScriptedLlm((s, a) => (a === 1 ? clean : anew), undefined, () => ({ text: JSON.stringify(strict), json: strict }));
    const res = await run(llm, [scenePacket(4)]);
    const sc = res.report.scenes[0];
    expect(sc.attempts.map((a) => [a.mode, a.kept_opening, a.findings.map((f) => f.code).join()])).toEqual([
      ['write', undefined, 'AUR5061'],
      ['punch_up', 'rewritten', 'AUR5096'],
      ['punch_up', 'rewritten', 'AUR5096'],
    ]);
    // The second punch-up was asked to keep the first draft's opening again.
    const [, p2, p3] = llm.writerRequests('SC04').map((r) => (r.payload as WriterPayload).keep_text);
    expect(p3).toBe(p2);
    expect(sc).toMatchObject({ final_verdict: 'PASS', manual_review: true });
    expect(res.scenes[0].text).toBe(as('clean.txt', 'SC04').split('---SCENE_TEXT---\n')[1]!.split('\n\n---CLAIMS---')[0]);
  });

  it('escalates after two failures, then falls back to a simplified operator set for manual review', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'aureus-repair-'));
    dirs.push(dir);
    const llm = new ScriptedLlm((s, a) => (a < 4 ? as('dead_speaks.txt', s) : as('clean.txt', s)
            .replace('Sosia, the doorkeeper, slips in.\n> SOSIA: They are waiting in the atrium.\n\n', '')
            .replace(/\n\n---CLAIMS---\n[\s\S]*?\n\n---SCENE_EVENTS---/, '\n\n---CLAIMS---\n[]\n\n---SCENE_EVENTS---')));
    const res = await run(llm, [scenePacket(4)], undefined, 4, dir);
    expect(res.ok).toBe(true);
    const reqs = llm.writerRequests('SC04');
    expect(reqs.map((r) => Boolean(r.escalate))).toEqual([false, false, true, true]);
    const last = reqs[3].payload as WriterPayload;
    expect(last.mode).toBe('simplified');
    expect(last.packet.constraints.allowed_inventions).toEqual({ max: 0, kinds: [] });
    expect(last.packet.director_instructions.sequence.every((s) => s.triggered_risks.length === 0)).toBe(true);
    expect(last.packet.constraints.required_deltas).toEqual(packet().constraints.required_deltas);
    const sc = res.report.scenes[0];
    expect(sc.attempts.map((a) => a.mode)).toEqual(['write', 'regenerate', 'regenerate', 'simplified']);
    expect(sc.attempts.map((a) => a.model)).toEqual(['writer-model', 'writer-model', 'big-model', 'big-model']);
    expect(sc.manual_review).toBe(true);
    expect(sc.attempts[3].findings.map((f) => [f.code, f.severity, f.message])).toEqual([['AUR5091', 'soft', 'scene SC04 was rewritten with a simplified operator set']]);
    expect(res.scenes[0].simplified).toBe(true);
    expect(res.report.budget.used).toBe(3);
    expect(await readFile(path.join(dir, 'drafts/SC04.3.txt'), 'utf8')).toBe(as('dead_speaks.txt', 'SC04'));
  });

  it('fails cleanly when a scene keeps failing: ok false, report written, nothing approved for it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'aureus-repair-'));
    dirs.push(dir);
    const llm = new ScriptedLlm((s) => (s === 'SC02' ? as('dead_speaks.txt', s) : as('clean.txt', s)));
    const res = await run(llm, [scenePacket(1), scenePacket(2), scenePacket(3)], undefined, 4, dir);
    expect(res.ok).toBe(false);
    expect(res.report.verdict).toBe('FAIL');
    expect(res.scenes.map((s) => s.scene)).toEqual(['SC01', 'SC03']);
    expect(res.report.scenes.map((s) => s.final_verdict)).toEqual(['PASS', 'FAIL', 'PASS']);
    expect(res.report.scenes[1].attempts).toHaveLength(4);
    const onDisk = JSON.parse(await readFile(path.join(dir, 'verifier_report.json'), 'utf8'));
    expect(onDisk.verdict).toBe('FAIL');
  });

  it('allocates the episode budget in scene order, whatever the completion order and concurrency', async () => {
    const failing = new Set(['SC02', 'SC05', 'SC07']);
    const script = (s: string) => (failing.has(s) ? as('dead_speaks.txt', s) : as('clean.txt', s));
    const packets = [1, 2, 3, 4, 5, 6, 7, 8].map(scenePacket);
    const outs: string[] = [];
    for (const conc of [1, 3, 8]) {
      const res = await run(new ScriptedLlm(script), packets, { per_scene: 2, per_episode: 5 }, conc);
      expect(res.ok).toBe(false);
      expect(res.report.budget.used).toBe(5);
      // Round 2 grants SC02, SC05, SC07; round 3 grants SC02 and SC05; SC07's third try is denied.
      expect(res.report.scenes.filter((s) => failing.has(s.scene)).map((s) => [s.scene, s.attempts.length])).toEqual([
        ['SC02', 3],
        ['SC05', 3],
        ['SC07', 2],
      ]);
      outs.push(JSON.stringify(res));
    }
    expect(outs[1]).toBe(outs[0]);
    expect(outs[2]).toBe(outs[0]);
  });

  it('propagates an abort', async () => {
    const ac = new AbortController();
    const llm = new ScriptedLlm((s) => {
      ac.abort(new Error('interrupted'));
      return as('dead_speaks.txt', s);
    });
    await expect(writeEpisodeScenes({ llm, plan, packets: [scenePacket(1), scenePacket(2)], world, style, budgets: { per_scene: 2, per_episode: 12 }, concurrency: 1, seed: 's', signal: ac.signal })).rejects.toThrow('interrupted');
  });
});
