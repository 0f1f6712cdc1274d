import type { EpisodePlan } from '../../domain/plan.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { ApprovedScene } from '../../domain/scene.js';
import { readSceneText, renderScriptMarkdown, sceneHeading, type ScriptDoc } from '../../season/script-model.js';

/**
 * episode_script.md (spec §11.1): the approved scenes in plan order, each under a heading built
 * from its packet (not from whatever heading the model typed: models vary it freely), a cast line,
 * and the text with dialogue normalised to `> CUE: line`. An author's edit (`scene edit`, a hand
 * edit of the staged script) keeps the heading the author wrote: replacing it would undo the edit
 * without a word.
 */
export function buildScriptDoc(plan: EpisodePlan, packets: ScenePacket[], scenes: ApprovedScene[]): ScriptDoc {
  const byScene = new Map(scenes.map((s) => [s.scene, s]));
  const packetOf = new Map(packets.map((p) => [p.scene_id, p]));
  const label = plan.episode_id.toUpperCase();
  const first = packets[0];
  const doc: ScriptDoc = {
    title: `${label}: ${plan.title}`,
    subtitle: first ? first.setting.date_text : undefined,
    scenes: [],
  };
  for (const planned of plan.scenes) {
    const approved = byScene.get(planned.id);
    const packet = packetOf.get(planned.id);
    if (!approved || !packet) continue;
    const cues = [...packet.cast.map((c) => c.cue), ...packet.dead.map((d) => d.cue)];
    const read = readSceneText(approved.text, cues);
    const own = approved.author === 'human' ? authorHeading(read.headings[0]) : '';
    doc.scenes.push({
      id: planned.id,
      heading: own || headingOf(packet),
      cast: packet.cast.map((c) => c.name),
      elements: read.elements,
    });
  }
  return doc;
}

/**
 * The scene heading: INT./EXT. from the packet's `exterior` (the location's flag, e.g. the Forum is
 * outdoors though its setting is court); older packets without it fall back to the setting.
 */
function headingOf(packet: ScenePacket): string {
  const h = sceneHeading(packet.setting.kind, packet.setting.location_name, packet.setting.time_of_day);
  if (packet.setting.exterior === undefined) return h;
  return h.replace(/^(INT|EXT)\./, packet.setting.exterior ? 'EXT.' : 'INT.');
}

/** `## SC03 — HOUSE OF SERVILIA` or `INT. THE TABLINUM - NIGHT` → the heading's words, without the scene id. */
function authorHeading(line: string | undefined): string {
  if (!line) return '';
  return line.replace(/^#{1,6}\s+/, '').replace(/^SC\d+\s*(?:[—–:-]\s*|$)/i, '').trim();
}

export function buildScript(plan: EpisodePlan, packets: ScenePacket[], scenes: ApprovedScene[]): string {
  return renderScriptMarkdown(buildScriptDoc(plan, packets, scenes));
}
