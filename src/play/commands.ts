import { formatValue } from '../core/readable.js';
import type { ScenePacket } from '../domain/packet.js';
import { addToPacket, scenePacket } from './context.js';
import { HELP, type PlayAction } from './directives.js';
import { playNoteText, PLAY_NOTE_MAX } from './notes.js';
import type { PlayDeps } from './session.js';
import type { PlayState } from './state.js';
import { BEATS, type Beat, type PlayEvent, type TurnRecord } from './types.js';

/** What an action may touch: the session's own recorder, never its internals. */
export interface SessionControl {
  state: () => PlayState;
  deps: PlayDeps;
  /** What the user is told (an event, a command's answer): through the session, so an answer's directive is said after its line. */
  emit: (e: PlayEvent) => void;
  info: (text: string) => void;
  nextId: () => string;
  record: (r: TurnRecord) => void;
  rebrief: () => void;
  setPacket: (p: ScenePacket) => void;
  canonize: (trigger: string) => Promise<unknown>;
  finish: (trigger: string) => Promise<void>;
}

/**
 * One implementation per action, shared by slash commands and model directives (seed 001). An
 * invalid action is reported and records nothing, so it changes nothing.
 */
export async function runAction(c: SessionControl, a: PlayAction): Promise<void> {
  const fail = (m: string) => c.emit({ type: 'notice', message: `/${a.name}: ${m}; nothing changed` });
  const rec = (args: string, effect: string) => c.record({ type: 'command', id: c.nextId(), name: a.name, args, effect: a.source === 'directive' ? `${effect} (model directive)` : effect });
  const s = c.state();
  switch (a.name) {
    case 'note':
    case 'thread':
      return staged(c, a, fail, rec);
    case 'character':
      return character(c, a.text, fail, rec);
    case 'beat': {
      const b = a.text.toLowerCase();
      if (!(BEATS as readonly string[]).includes(b)) return fail(`"${a.text}" is not a beat (${BEATS.join(', ')})`);
      // Yours is answered as /note is; a beat the scene is at or past would be recorded and change
      // nothing, silently. A model's directive stays as it was (recorded, unanswered).
      if (a.source !== 'directive') {
        const at = s.director.current_beat;
        if (BEATS.indexOf(b as Beat) <= BEATS.indexOf(at)) return fail(`the scene is already at ${at}${b === at ? '' : `, past ${b}`}`);
      }
      rec(b, `beat ${b} reached`);
      if (a.source !== 'directive') c.info(`beat ${b} reached`);
      return;
    }
    case 'scene':
      return c.info(sceneText(c));
    case 'status':
      return c.info(statusText(s));
    case 'help':
      return c.info(HELP);
    case 'commit':
      rec('', 'canonize now');
      await c.canonize('commit');
      return;
    case 'end':
      rec('', 'end of scene');
      return c.finish('user_end');
    case 'undo': {
      const last = s.exchanges.at(-1);
      if (!last) return fail('there is no turn to take back');
      if (s.proposals.some((p) => p.status !== 'pending' && p.turns.includes(last.user_id))) return fail('that turn is already canon');
      c.record({ type: 'undo', id: c.nextId(), target: last.user_id });
      // A character the model's answer brought in leaves with it: the packet as a resume would build it.
      if (c.state().cast.length < s.cast.length) c.setPacket(scenePacket(c.deps.world, s.setup, c.deps.pinned?.packet ?? null, c.state().cast));
      return c.info(`took back ${last.user_id} and its answer`);
    }
  }
}

/**
 * A /note or /thread, staged for the season notes as they will keep it (notes.ts playNoteText):
 * one over their limit is cut here, with a notice, and the cut text is what is recorded — before,
 * the line was answered `noted` and cut only at canonization, in silence (and in UTF-16 units, which
 * could leave half an emoji in notes.json), while `session show` listed it whole.
 */
function staged(c: SessionControl, a: PlayAction, fail: (m: string) => void, rec: (args: string, effect: string) => void): void {
  const note = a.name === 'note';
  const t = playNoteText(a.text);
  if (!t.text) return fail(note ? 'usage: /note <idea>' : 'usage: /thread <question>');
  if (t.cut) c.emit({ type: 'notice', message: `/${a.name}: it was ${t.length} characters; cut at the season notes' limit of ${PLAY_NOTE_MAX} (the first ${PLAY_NOTE_MAX} are kept)` });
  rec(t.text, note ? 'staged note for the season notes' : 'staged proposed thread');
  c.info(note ? 'noted (saved to the season notes at the next canonization)' : 'thread proposed for the next episode');
}

function character(c: SessionControl, id: string, fail: (m: string) => void, rec: (args: string, effect: string) => void): void {
  const s = c.state();
  const who = c.deps.world.characters.characters.find((x) => x.id === id.trim());
  if (!id) return fail('usage: /character <id>');
  if (!who) return fail(`no character "${id}" in the world`);
  if (who.status !== 'alive') return fail(`${who.name} is ${who.status}`);
  if (who.id === s.setup.principal || s.cast.includes(who.id)) return fail(`${who.name} is already on stage`);
  rec(who.id, `${who.id} enters`);
  c.setPacket(addToPacket(c.deps.packet, c.deps.world, who.id));
  c.rebrief();
  c.info(`${who.name} enters.`);
}

function sceneText(c: SessionControl): string {
  const s = c.state();
  const p = c.deps.packet;
  const name = (id: string) => c.deps.world.characters.characters.find((x) => x.id === id)?.name ?? id;
  return `${s.setup.scene}${s.setup.episode ? ` of ${s.setup.episode}` : ''} at ${p.setting.location_name}; you are ${name(s.setup.principal)}; on stage: ${s.cast.map(name).join(', ') || 'nobody'}.`;
}

/** Proposals judged that wrote nothing, when there are any. */
function unchangedText(s: PlayState): string {
  const n = s.proposals.filter((p) => p.status === 'unchanged').length;
  return n ? `${n} unchanged, ` : '';
}

export function statusText(s: PlayState): string {
  const d = s.director;
  const pending = s.proposals.filter((p) => p.status === 'pending').length;
  const budget = s.setup.mode === 'turn_limited' ? `/${s.setup.turn_budget}` : '';
  return [
    `session ${s.session} · mode ${s.setup.mode} · turn ${d.turn_count}${budget} · beat ${d.current_beat}`,
    `tension ${d.tension_curve.map((t) => formatValue(t, 'metric')).join(' → ') || '(none yet)'}`,
    `staged proposals: ${pending} pending, ${s.proposals.filter((p) => p.status === 'accepted').length} canon, ${unchangedText(s)}${s.proposals.filter((p) => p.status === 'rejected').length} rejected · notes ${s.notes.filter((x) => x.canonization === null).length} · threads ${s.threads.filter((x) => x.canonization === null).length}`,
  ].join('\n');
}
