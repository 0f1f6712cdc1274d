import type { AppliedDelta, Provenance, ResolvedDelta } from '../../domain/delta.js';
import type { EpisodePlan } from '../../domain/plan.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { ApprovedScene, Claim } from '../../domain/scene.js';
import type { CanonFact, World } from '../../domain/world.js';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/index.js';
import { applyDeltas } from '../../core/deltas/index.js';

/**
 * Stage H, step 1: the approved scenes become canon (spec §8.3, §5.2 H). One batch per scene, in
 * plan order, each delta with provenance {episode, scene, event, operator}:
 *   - the plan's required_deltas of every operator application the scene carries (event: the
 *     scene event aligned to that application, else "plan");
 *   - downgraded claims → a "RUMOR: …" belief of every living cast member (event "claim:<id>");
 * Accepted claims become facts in world/canon.json. Nothing here does I/O; a failed batch throws
 * AUR6016 and the input world is untouched (the engine is transactional).
 */
export interface CanonResult {
  world: World;
  applied: AppliedDelta[];
  facts: CanonFact[];
  /** The world after each approved scene, in order (the tension curve is measured on these). */
  sceneWorlds: { scene: string; world: World }[];
}

const FACT_KINDS = new Set(['minor_character', 'object', 'place_detail', 'fact']);

export function rumorBelief(claim: Claim): string {
  return `RUMOR: ${claim.text.replace(/\s+/g, ' ').trim()}`;
}

export function applyApprovedScenes(world: World, plan: EpisodePlan, packets: ScenePacket[], scenes: ApprovedScene[], runDir = ''): CanonResult {
  const approved = new Map(scenes.map((s) => [s.scene, s]));
  const packetOf = new Map(packets.map((p) => [p.scene_id, p]));
  let w = world;
  const applied: AppliedDelta[] = [];
  const facts: CanonFact[] = [];
  const sceneWorlds: { scene: string; world: World }[] = [];
  for (const planned of plan.scenes) {
    const scene = approved.get(planned.id);
    if (!scene) continue;
    const batch: ResolvedDelta[] = [];
    const prov: Provenance[] = [];
    const beats = plan.beats.filter((b) => b.scene === planned.id);
    // An author's edit is marked on every change its scene makes (issue 16).
    const human = scene.author === 'human' ? { author: 'human' as const } : {};
    for (const beat of beats) {
      for (const app of beat.applications) {
        const ev = scene.events.find((e) => e.application_id === app.id) ?? scene.events.find((e) => e.operator_id === app.operator_id);
        for (const d of app.required_deltas) {
          batch.push(d);
          prov.push({ episode: plan.episode_id, scene: planned.id, event: ev?.id ?? 'plan', operator: app.operator_id, ...human });
        }
      }
    }
    const packet = packetOf.get(planned.id);
    const living = (packet?.cast ?? []).filter((c) => c.status === 'alive').map((c) => c.id);
    const claims = [...scene.accepted_claims.filter((c) => !FACT_KINDS.has(c.kind)), ...scene.downgraded_claims];
    for (const claim of claims) {
      // A downgraded claim is believed by its holders (a secret's holders here), else by the whole living cast.
      for (const id of claim.holders ? living.filter((h) => claim.holders!.includes(h)) : living) {
        batch.push({ path: `characters.${id}.bdi.beliefs`, op: 'add', value: rumorBelief(claim) });
        prov.push({ episode: plan.episode_id, scene: planned.id, event: `claim:${claim.id}`, operator: null, ...human });
      }
    }
    const r = applyDeltas(w, batch, (_d, i) => prov[i]);
    if (!r.ok) {
      const message = r.diagnostics.map((d) => d.message).join('; ');
      throw new AureusError(`the approved deltas of ${planned.id} could not be applied`, {
        exitCode: ExitCode.INTERNAL,
        diagnostics: [diag('AUR6016', { scene: planned.id, message, run: runDir }), ...r.diagnostics],
      });
    }
    w = r.world;
    applied.push(...r.applied);
    sceneWorlds.push({ scene: planned.id, world: w });
    scene.accepted_claims
      .filter((c) => FACT_KINDS.has(c.kind))
      .forEach((c, i) => {
        const fact: CanonFact = {
          id: `f_${plan.episode_id}_${planned.id.toLowerCase()}_${i + 1}`,
          kind: c.kind as CanonFact['kind'],
          text: c.text,
          episode: plan.episode_id,
          scene: planned.id,
        };
        if (c.subject) fact.subject = c.subject;
        facts.push(fact);
      });
  }
  if (facts.length) {
    const known = new Set((w.canon?.facts ?? []).map((f) => f.id));
    const add = facts.filter((f) => !known.has(f.id));
    w = { ...w, canon: { ...(w.canon ?? { format: 1 }), format: 1, facts: [...(w.canon?.facts ?? []), ...add] } };
  }
  return { world: w, applied, facts, sceneWorlds };
}
