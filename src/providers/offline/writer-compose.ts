import { Rng } from '../../core/rng.js';
import { vocatives, vocativesFit, KIN_WORDS, PRAENOMINA } from '../../core/forms-of-address.js';
import type { PacketCastMember, PacketInstruction, ScenePacket } from '../../domain/packet.js';
import type { Register } from '../../domain/world.js';
import type { Claim, SceneEvent } from '../../domain/scene.js';
import { type WriterPayload } from '../../stages/e-writer/types.js';
import * as P from './writer-phrases.js';
import { lowerLead } from './writer-phrases.js';
import { Draft, SceneState, cap, sentence } from './writer-draft.js';
import { depict, eventFor, inventClaims } from './writer-events.js';
import { LineBook, ownLines, packetSeats, sceneBlock, turnOf } from './writer-lines.js';
import { address, addressable, cueOf, fill, heading, names, prose, shortName, shortNames, type Names } from './writer-names.js';
import { cycled, timeFits, untimed } from './writer.js';

/** Composition of a first draft: the opening, one passage per move (or a connective talk), the button. */

const registerPool = (r: Register): readonly string[] => P.REGISTER_LINES[r] ?? P.REGISTER_LINES.patrician;
export const REACTION_POOLS = P.REACTIONS;

/** What one draft shares between its parts. */
export interface Scene {
  p: WriterPayload;
  pk: ScenePacket;
  rng: Rng;
  seed: string;
  n: Names;
  book: LineBook;
  state: SceneState;
  formal: boolean;
  simplified: boolean;
  lines: string[];
  events: SceneEvent[];
  shown: Set<string>;
  rhetoricUsed: boolean;
  lastMover?: PacketCastMember;
  lastTarget: string;
}

export function compose(p: WriterPayload, rng: Rng, seed: string): Draft {
  const pk = p.packet;
  const sc: Scene = {
    p, pk, rng, seed, n: names(pk), book: new LineBook(seed, pk), state: { quoted: false, seed, secrets: new Set() },
    formal: P.FORMAL_SETTINGS.includes(pk.setting.kind), simplified: p.mode === 'simplified',
    lines: [], events: [], shown: new Set(), rhetoricUsed: false, lastTarget: '',
  };
  openScene(sc);
  const sequence = pk.director_instructions.sequence;
  const steps = sc.simplified ? sequence.filter((s) => pk.constraints.required_deltas.some((d) => d.application_id === s.application_id)) : sequence;
  steps.forEach((ins, idx) => playMove(sc, ins, idx));
  if (!steps.length) connective(sc);
  const claims: Claim[] = sc.simplified ? [] : inventClaims(p, rng, sc.lines, seed, sc.book);
  if (sc.lines[sc.lines.length - 1] !== '') sc.lines.push('');
  const mover = sc.lastMover ?? pk.cast[0];
  const isCliff = sequence.some((s) => s.tag === 'cliffhanger');
  sc.lines.push(hookLine(isCliff ? P.CLIFFHANGER_HOOKS : P.HOOKS, pk, seed, mover, sc.lastTarget, sc.book));
  return { lines: sc.lines, claims, events: sc.events, hookIndex: sc.lines.length - 1 };
}

function openScene(sc: Scene): void {
  const { pk, seed } = sc;
  sc.lines.push(heading(pk), '', `**Cast:** ${pk.cast.map((c) => c.name).join(', ')}`, '');
  const opening = untimed(cycled(P.OPENINGS[pk.setting.kind] ?? P.OPENINGS.street, `open/${pk.setting.kind}`, seed, pk, 0, timeFits(pk)));
  sc.lines.push(fill(opening, { atmo: sentence(pk.setting.atmosphere) }).trim(), '');
}

const say = (sc: Scene, c: PacketCastMember, text: string) => sc.lines.push(`> ${cueOf(c)}: ${text}`);

function speaker(sc: Scene, preferred: string | undefined, avoid?: string): PacketCastMember | undefined {
  const c = preferred ? sc.pk.cast.find((x) => x.id === preferred) : undefined;
  if (c) return c;
  const others = sc.pk.cast.filter((x) => x.id !== avoid);
  return others.length ? sc.rng.pick(others) : sc.pk.cast[0];
}

/**
 * A line in the speaker's register, to `to` (or to the air). Now and then the speaker borrows one
 * of their own sample lines, when its forms of address fit the person spoken to (Servilia's
 * "Gaius" is for her lover Caesar; Caesar's "Mother" for nobody on the page). Stock lines come
 * from this scene's own block of the register's pool, so no other scene repeats them.
 */
export function registerLine(sc: Scene, c: PacketCastMember, to: PacketCastMember | undefined): string {
  const flags = to ? sc.n.flags(c.id, to.id) : [];
  const own = c.sample_lines.filter((l) => vocativesFit(l, to, flags));
  // Their own lines take turns by scene, like stock lines: not the same one in every scene.
  const ownTurn = turnOf(own, sc.pk);
  if (ownTurn && sc.rng.next() < 0.3) return ownTurn;
  const target = to ? sc.n.addressOf(c.id, to) : undefined;
  const pool = registerPool(c.register);
  const key = `register/${c.register}`;
  // With nobody in the room to speak to, a line is said to the air, not to "you".
  const alone = (l: string) => !/\b(you|your|yours)\b/i.test(l);
  const line = sc.book.take(pool, key, 1, c.id, addressable(target) ? undefined : alone)
    ?? turnOf(c.sample_lines.filter((l) => !vocatives(l, [...PRAENOMINA, ...KIN_WORDS]).length && alone(l)), sc.pk)
    ?? sc.book.take(pool, key, 1, c.id)
    ?? turnOf(own.filter((l) => addressable(target) || alone(l)), sc.pk);
  // Nothing of their own left to say in this scene: they say nothing, rather than another's line.
  return line === undefined ? '' : address(line, target);
}

function withRhetoric(sc: Scene, speech: string, by: PacketCastMember): string {
  if (!sc.formal || sc.rhetoricUsed || sc.simplified) return speech;
  // One figure of speech per scene, each scene its own: one speech, not two cues in a row from the same mouth.
  sc.rhetoricUsed = true;
  const figure = sc.book.take(P.RHETORIC_ALL, 'rhetoric', 1, by.id);
  return figure ? `${speech} ${figure}`.trim() : speech;
}

function playMove(sc: Scene, ins: PacketInstruction, idx: number): void {
  const { pk, rng, n } = sc;
  const actor = speaker(sc, ins.bindings.actor);
  const targetId = ins.bindings.target;
  const inCast = targetId ? pk.cast.find((c) => c.id === targetId) : undefined;
  const other = inCast ?? speaker(sc, undefined, actor?.id);
  const facing = other && actor && other.id !== actor.id ? other : undefined;
  sc.lines.push(sentence(prose(ins.narrative_directive, n, sc.state.secrets)));
  if (!sc.simplified && ins.visual_cues.length) sc.lines.push(sentence(rng.pick(ins.visual_cues)));
  let speech = actor ? withRhetoric(sc, registerLine(sc, actor, facing), actor) : '';
  // A formal scene is not played in silence: with nothing of their own left, the actor's first own line again.
  if (actor && !speech && sc.formal && !sc.lines.some((l) => l.startsWith('>'))) speech = address(ownLines(registerPool(actor.register), `register/${actor.register}`, sc.seed, { ...pk, number: 1 }, actor.id)[0] ?? '', facing ? n.addressOf(actor.id, facing) : undefined);
  if (actor && speech) say(sc, actor, speech);
  // One beat of atmosphere per scene, after the first move: more reads as padding.
  if (!sc.simplified && idx === 0) sc.lines.push(cycled(sc.formal ? P.FORMAL_BEATS : P.THRILLER_BEATS, `beat/${sc.formal ? 'formal' : 'thriller'}`, sc.seed, pk, 5 * idx));
  const deltas = pk.constraints.required_deltas.filter((d) => d.application_id === ins.application_id);
  showDeltas(sc, deltas);
  if (facing && actor) {
    const reply = sc.book.take(REACTION_POOLS[ins.outcome], `reaction/${ins.outcome}`, 1, facing.id);
    if (reply) say(sc, facing, reply);
  }
  if (!sc.simplified && ins.triggered_risks.length) {
    const lead = rng.pick(P.RISK_LEADS);
    const risk = sentence(shortNames(prose(ins.triggered_risks[0]!, n, sc.state.secrets), n));
    sc.lines.push(lead ? `${lead}${lead.endsWith(': ') ? lowerLead(risk) : risk}` : risk);
  }
  sc.lines.push('');
  sc.events.push(eventFor(ins, idx, deltas));
  sc.lastMover = actor;
  sc.lastTarget = facing ? shortName(facing) : '';
}

/** One line per thread and no line twice: bookkeeping deltas ride along with their thread. */
function showDeltas(sc: Scene, deltas: ScenePacket['constraints']['required_deltas']): void {
  for (const d of deltas) {
    const isThread = d.path.startsWith('threads.');
    const thread = d.path.split('.').slice(0, 2).join('.');
    if (isThread && sc.shown.has(thread)) continue;
    const line = depict(d, sc.pk, sc.rng, sc.state);
    // A stat moved twice in one scene (the move and its risk) is shown once.
    const key = isThread ? thread : /^characters\.[^.]+\.stats\./.test(d.path) ? d.path : line;
    if (sc.shown.has(key)) continue;
    sc.shown.add(key);
    sc.lines.push(line);
  }
}

/** A connective scene: the cast talk; nothing changes. */
function connective(sc: Scene): void {
  const [a, b] = sc.pk.cast;
  const opening = a ? withRhetoric(sc, registerLine(sc, a, b), a) : '';
  if (a && opening) say(sc, a, opening);
  // The answer: this scene's reply (a connective scene has no move to answer), else b's own voice.
  const answer = b ? sc.book.take(REACTION_POOLS.success, 'reaction/success', 1, b.id) ?? registerLine(sc, b, a) : '';
  if (b && answer) say(sc, b, answer);
  sc.lines.push('');
  sc.lastMover = a;
  sc.lastTarget = b ? shortName(b) : '';
}

/**
 * The button line. A spoken hook comes from this scene's own entry of the episode's hook order
 * (so no two movers share one); when it does not suit the hour or the scene, a narrated hook that
 * does. A hook about "{target}" needs someone to be about.
 */
export function hookLine(pool: readonly string[], pk: ScenePacket, seed: string, mover: PacketCastMember | undefined, target: string, book?: LineBook): string {
  const time = timeFits(pk);
  const fits = (o: string) => time(o) && (addressable(target) || !o.includes('{target}')) && (!!mover || !/\{(name|CUE)\}/.test(o));
  const key = pool === P.HOOKS ? 'hook' : 'cliff';
  // With the world's seats a spoken hook is its owner's only (the cliffhanger's too); else the scene's own hook.
  const owned = !!packetSeats(pk);
  const own = (owned ? narratedTurn(pool, key, seed, pk, fits, true) : undefined)
    ?? (book && (pool === P.HOOKS || owned) ? book.take(pool, key, 1, mover?.id, (o) => fits(o) && (!owned || o.startsWith('>'))) : undefined)
    ?? (owned ? narratedTurn(pool, key, seed, pk, fits, false) : undefined);
  const hook = untimed(own ?? cycled(pool, key, seed, pk, 0, (o) => fits(o) && ((pool !== P.HOOKS && !owned) || !o.startsWith('>'))));
  return cap(fill(hook, { name: mover ? shortName(mover) : 'Someone', CUE: mover ? cueOf(mover) : 'CROWD', target }));
}

/**
 * A narrated hook for this scene: its own entry of the episode's order when that one is narrated;
 * when it is a spoken one (its owner's only) or does not suit the scene, the narrated entries in
 * turn by scene number, so each narrated hook ends only a few scenes of an episode.
 */
function narratedTurn(pool: readonly string[], key: string, seed: string, pk: ScenePacket, fits: (o: string) => boolean, ownOnly: boolean): string | undefined {
  const order = sceneBlock(pool, key, seed, { ...pk, number: 1 }, pool.length);
  const mine = order[pk.number - 1];
  if (mine !== undefined && !mine.startsWith('>') && fits(mine)) return mine;
  if (ownOnly) return undefined;
  const narrated = order.filter((o) => !o.startsWith('>') && fits(o));
  return narrated.length ? narrated[(pk.number - 1) % narrated.length] : undefined;
}
