import type { CliffhangerConstraints } from '../../domain/context.js';
import type { EpisodePlan, OperatorApplication } from '../../domain/plan.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { World } from '../../domain/world.js';

/**
 * cliffhanger_constraints.json (spec §5.2 H): what the next episode must honour. The kind is read
 * from the cliffhanger beat's symbolic content, never from prose:
 *   physical_danger  a character's status changes (death, arrest, exile), or the operator is one
 *                    of violence (its guidance/name speaks of blades, ambush, fire, a mob, arrest)
 *                    → must_start_immediately, no time skip;
 *   revelation       a secret changes status or holders → a time skip is allowed;
 *   political        a thriller move otherwise → a time skip is allowed (politics keeps the calendar);
 *   emotional        a soap move otherwise → no time skip: the wound must be answered at once,
 *                    but not necessarily in the same place and moment.
 */
const DANGER = /\b(ambush|assassin|assassinat|blade|dagger|knife|sword|kill|murder|poison|fire|burn|mob|riot|attack|arrest|seize|storm|wound|blood|flee|chase|drown|violence)/i;

export function cliffhangerKind(app: OperatorApplication, world: World): CliffhangerConstraints['kind'] {
  const op = world.operators.operators.find((o) => o.id === app.operator_id);
  const paths = app.required_deltas.map((d) => d.path);
  if (paths.some((p) => /^characters\.[a-z0-9_]+\.status$/.test(p))) return 'physical_danger';
  const words = op ? `${op.name} ${op.writer_guidance.success_beat} ${op.writer_guidance.fail_beat} ${op.writer_guidance.visual_cues.join(' ')}` : '';
  if (DANGER.test(words) && !paths.some((p) => p.startsWith('secrets.'))) return 'physical_danger';
  if (paths.some((p) => /^secrets\.[a-z0-9_]+\.(status|holders)$/.test(p)) || op?.beats.includes('reveal')) return 'revelation';
  return app.type === 'soap' ? 'emotional' : 'political';
}

export function extractCliffhanger(plan: EpisodePlan, packets: ScenePacket[], world: World): CliffhangerConstraints {
  const beat = plan.beats.find((b) => b.tag === 'cliffhanger') ?? plan.beats[plan.beats.length - 1];
  const app = beat?.applications[0];
  const sceneId = beat?.scene ?? plan.scenes[plan.scenes.length - 1]?.id ?? '';
  const planned = plan.scenes.find((s) => s.id === sceneId);
  const packet = packets.find((p) => p.scene_id === sceneId);
  const kind: CliffhangerConstraints['kind'] = app ? cliffhangerKind(app, world) : 'political';
  const instruction = packet?.director_instructions.sequence.find((i) => i.application_id === app?.id);
  const threads = app?.threads_advanced ?? [];
  const thread = world.threads.threads.find((t) => threads.includes(t.id));
  const actor = app?.bindings.actor ? world.characters.characters.find((c) => c.id === app.bindings.actor) : undefined;
  return {
    format: 1,
    episode_id: plan.episode_id,
    kind,
    must_start_immediately: kind === 'physical_danger',
    time_skip_allowed: kind === 'revelation' || kind === 'political',
    scene: sceneId,
    location: planned?.location ?? packet?.setting.location ?? '',
    characters: [...(planned?.cast ?? [])].sort(),
    operator_id: app?.operator_id ?? '',
    application_id: app?.id ?? '',
    summary: instruction?.narrative_directive ?? beat?.summary ?? '',
    open_question: thread ? thread.question : actor ? `What will ${actor.name} do now?` : 'What happens next?',
  };
}
