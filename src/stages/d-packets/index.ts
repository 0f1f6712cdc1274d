import type { EpisodeContext } from '../../domain/episode-context.js';
import { prunePacket } from './prune.js';
import type { PacketCastMember, PacketInstruction, ScenePacket } from '../../domain/packet.js';
import type { EpisodePlan, OperatorApplication } from '../../domain/plan.js';
import { isExterior, type Character, type Gender, type Operator, type World } from '../../domain/world.js';
import { genderOf, pronoun, type PronounForm } from '../../core/forms-of-address.js';
import { stableStringify } from '../../core/json.js';
import { edgeOf, indexWorld, type WorldIndex } from '../../core/world-index.js';
import { secretsTold } from '../../core/secrets-told.js';
import { dateText } from '../a-snapshot/index.js';
import { canAct, roleKind, roleOrder } from '../b-proposals/bdi.js';
import { openingWorld, projectPlan } from '../c-director/checks.js';
import { tension } from '../../core/tension.js';
import { StateHasher } from '../../core/state-hash.js';
import { forbiddenFacts, forbiddenScope, type ForbiddenScope } from './forbidden.js';
import { retrieve, snapshotEdges, type CharacterEntries, type SnapshotEdges } from './retrieve.js';
import { ItemLengths } from './measure.js';
import { seatTable, voiceSeats, type SeatTable } from './voice-seats.js';

export interface PacketOptions {
  /** Hops of the subgraph walk from the cast (1 or 2). */
  k: 1 | 2;
  /** Estimated tokens (ceil(chars/4) of the packet's canonical JSON) a packet may take. */
  tokenBudget: number;
  allowedInventions: { max: number; kinds: string[] };
}

export const DEFAULT_PACKET_OPTIONS: PacketOptions = {
  k: 2,
  tokenBudget: 6000,
  allowedInventions: { max: 2, kinds: ['minor_character', 'object', 'place_detail'] },
};

export const estimateTokens = (value: unknown): number => Math.ceil(stableStringify(value).length / 4);

export { FORBIDDEN_ALL_CAP, forbiddenSecretFact, forbiddenSecretText } from './forbidden.js';

/** What the scenes before this one left behind: where each character was last seen, and which places were shown. */
interface Carry {
  last: Map<string, { location: string; day: number }>;
  visited: Set<string>;
  /** Secrets already told in full by an earlier episode (told_in) or an earlier scene of this one: later scenes refer to them. */
  told: Set<string>;
}

/**
 * Stage D (pure): one self-contained packet per scene, from the plan re-projected over the snapshot.
 * `hasher` may come from stage A (planning.ts): the first scene's state shares nearly every element
 * with the snapshot it hashed (none of these states is mutated in place). `lengths` measures the
 * items the scenes share once for the whole call (measure.ts).
 */
export function buildPackets(plan: EpisodePlan, world: World, context: EpisodeContext, options: Partial<PacketOptions> = {}, hasher = new StateHasher(), lengths = new ItemLengths()): ScenePacket[] {
  const opts: PacketOptions = { ...DEFAULT_PACKET_OPTIONS, ...options };
  if (opts.k !== 1 && opts.k !== 2) throw new Error(`packet k must be 1 or 2, got ${String(opts.k)}`);
  const projection = projectPlan(plan, world, context);
  const start = openingWorld(world, context);
  const ops = new Map(world.operators.operators.map((o) => [o.id, o]));
  const carry: Carry = { last: new Map(), visited: new Set(), told: new Set(world.secrets.secrets.filter((s) => s.told_in).map((s) => s.id)) };
  for (const c of start.characters.characters) carry.last.set(c.id, { location: c.location, day: 0 });
  const snapshot = snapshotEdges(indexWorld(world));
  const shared: SharedInputs = { plan, world, context, opts, ops, hasher, seats: seatTable(world), scope: forbiddenScope(world), snapshot, entries: new Map(), lengths };
  return plan.scenes.map((_scene, i) => scenePacket(shared, i, projection.before[i]!, carry));
}

interface SharedInputs {
  plan: EpisodePlan;
  world: World;
  context: EpisodeContext;
  opts: PacketOptions;
  ops: Map<string, Operator>;
  hasher: StateHasher;
  /** Every character id, sorted, with its seat: who may own a stock line (the packets' `voice_seats`). */
  seats: SeatTable;
  scope: ForbiddenScope;
  snapshot: SnapshotEdges;
  /** Shared by the scenes' packets: subgraph character entries and their measured lengths. */
  entries: CharacterEntries;
  lengths: ItemLengths;
}

function scenePacket(sh: SharedInputs, i: number, before: World, carry: Carry): ScenePacket {
  const { plan, world, context, opts, ops } = sh;
  const scene = plan.scenes[i]!;
  const index = indexWorld(before);
  const beats = plan.beats.filter((b) => b.scene === scene.id);
  const apps = beats.flatMap((b) => b.applications);
  const focus = { cast: scene.cast, apps, bound: new Set(apps.flatMap((a) => Object.values(a.bindings))), advanced: new Set(apps.flatMap((a) => a.threads_advanced)), location: scene.location };
  const cast = castOf(index, ops, scene, apps, carry.last);
  const got = retrieve(before, index, { ...focus, told: carry.told }, opts.k, sh.snapshot, sh.entries, sh.lengths);
  const sequence: PacketInstruction[] = beats.flatMap((b) => b.applications.map((a, j) => instruction(world, index, ops.get(a.operator_id)!, a, b.id, j === 0 ? b.tag : null)));
  const { dead, forbidden, prunable } = forbiddenFacts(before, index, focus, cast, got.hop, sh.scope, got.around);
  const location = index.locations.get(scene.location);
  const revisit = carry.visited.has(scene.location);
  carry.visited.add(scene.location);
  const tellsNow = secretsTold(apps, (id) => index.secrets.has(id));
  const packet: ScenePacket = {
    format: 1,
    episode_id: plan.episode_id,
    scene_id: scene.id,
    number: scene.number,
    act: scene.act,
    marquee: scene.marquee,
    setting: {
      location: scene.location,
      location_name: location?.name ?? scene.location,
      kind: location?.setting ?? 'street',
      // INT./EXT. of the heading: the location's own flag, else by its setting.
      exterior: location ? isExterior(location) : true,
      time_of_day: scene.time_of_day,
      day: scene.day,
      date_text: dateText(context.date, scene.day),
      // The place is described the first time the episode goes there, not at every return.
      atmosphere: atmosphere(revisit ? '' : location?.description ?? '', scene.time_of_day, tension(before), scene.number + 5 * (Number(plan.episode_id.replace(/\D/g, '')) || 0)),
    },
    cast,
    dead,
    retrieved_subgraph: { k: opts.k, ...got.subgraph },
    pruned: [],
    director_instructions: { purpose: scene.purpose, sequence },
    constraints: {
      required_deltas: apps.flatMap((a) => a.required_deltas.map((d) => ({ ...d, application_id: a.id }))),
      forbidden_facts: forbidden,
      allowed_inventions: { max: opts.allowedInventions.max, kinds: [...opts.allowedInventions.kinds] },
      hook_requirement: hookRequirement(plan, i, sequence),
    },
    state_hash_before: sh.hasher.hash(before),
    token_estimate: 0,
    token_budget: opts.tokenBudget,
  };
  prunePacket(packet, opts.tokenBudget, got.secretRel, got.threadRel, prunable, sh.lengths);
  // After pruning: the seats of what the writer will read (and of what was pruned, which costs nothing).
  packet.voice_seats = voiceSeats(packet, sh.seats);
  for (const id of tellsNow) carry.told.add(id);
  return packet;
}

/** The cast as the writer meets them: mood, objective, voice, and where each comes from. */
function castOf(index: WorldIndex, ops: Map<string, Operator>, scene: EpisodePlan['scenes'][number], apps: OperatorApplication[], last: Carry['last']): PacketCastMember[] {
  const cast = scene.cast.map((id) => {
    const c = index.characters.get(id)!;
    const prev = last.get(id) ?? { location: c.location, day: 0 };
    return {
      id, name: c.name, cue: c.cue, status: c.status,
      ...genderField(c),
      ...(c.office ? { office: c.office } : {}),
      mood: moodOf(index, c, scene.cast, apps),
      objective: objectiveOf(index, ops, c, apps),
      register: c.voice.register, voice_tags: [...c.voice.tags], sample_lines: [...(c.voice.sample_lines ?? [])],
      previous_location: prev.location,
      days_since_previous: Math.max(0, scene.day - prev.day),
    };
  });
  for (const id of scene.cast) last.set(id, { location: scene.location, day: scene.day });
  return cast;
}

function hookRequirement(plan: EpisodePlan, i: number, sequence: PacketInstruction[]): string {
  return i === plan.scenes.length - 1
    ? `End on the cliffhanger: ${sequence.find((s) => s.tag === 'cliffhanger')?.narrative_directive ?? sequence[sequence.length - 1]?.narrative_directive ?? ''} Leave the question open.`
    : `End on a button line: a hook that turns toward what comes next (${plainPurpose(plan.scenes[i + 1]!.purpose)}).`;
}

function names(world: World, index: WorldIndex, op: Operator, a: OperatorApplication): Map<string, string> {
  const m = new Map<string, string>();
  for (const r of roleOrder(op)) {
    const id = a.bindings[r];
    if (!id) continue;
    const k = roleKind(op, r);
    const label = k === 'character' ? index.characters.get(id)?.name
      : k === 'secret' ? `the secret ("${(index.secrets.get(id)?.text ?? id).replace(/\.$/, '')}")`
      : k === 'thread' ? `the question "${index.threads.get(id)?.question ?? id}"`
      : k === 'location' ? index.locations.get(id)?.name
      : world.factions.factions.find((f) => f.id === id)?.name;
    m.set(r, label ?? id);
  }
  return m;
}


/**
 * Replace whole-word role names ("actor", "the target's") by the bound names. An article in
 * front of the role goes too ("the actor" → "Crassus"); for labels that bring their own
 * article ("the secret (…)") it is kept once.
 */
export function bindRoleNames(text: string, roles: Map<string, string>): string {
  let out = text;
  for (const [role, name] of [...roles.entries()].sort((a, b) => b[0].length - a[0].length)) {
    out = out.replace(new RegExp(`\\b(?:(the|The)\\s+)?${role}\\b`, 'g'), (_m, article: string | undefined) =>
      article === 'The' ? name.charAt(0).toUpperCase() + name.slice(1) : name);
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/**
 * Risk texts name their parties by what they are in the story ("the accused", "the betrayed
 * one"); on the page those are the bound people. Each noun stands for the role it describes.
 */
const ROLE_NOUNS: [RegExp, string][] = [
  [/\b[Tt]he accuser\b/g, 'actor'],
  [/\b[Tt]he (accused|betrayed one|victim|debtor|informer|witness|confidant|owner|writer)\b/g, 'target'],
];

export function bindRoleNouns(text: string, roles: Map<string, string>): string {
  let out = text;
  for (const [re, role] of ROLE_NOUNS) {
    const name = roles.get(role);
    // Only character roles: "the owner" of a secret's label would read as "the secret (…)".
    if (name && !/^the /.test(name)) out = out.replace(re, name);
  }
  return out;
}

/**
 * A scene purpose as the writer may read it: the plan's own labels ("CONFRONTATION: ", "; advances
 * thr_x", "(act 1, establishment)") are bookkeeping, not story, so they stay out of the hook.
 */
export function plainPurpose(purpose: string): string {
  return purpose.split(';')[0]!.replace(/^[A-Z][A-Z_ ]*:\s*/, '').replace(/\s*\(act \d+[^)]*\)\s*$/, '').trim();
}

function instruction(world: World, index: WorldIndex, op: Operator, a: OperatorApplication, beatId: string, tag: PacketInstruction['tag']): PacketInstruction {
  const roles = names(world, index, op, a);
  const people = new Map(Object.entries(a.bindings).flatMap(([r, id]) => { const c = index.characters.get(id); return c ? [[r, c] as const] : []; }));
  const bind = (t: string) => bindRoleNames(bindPronouns(t, people), roles);
  return {
    beat_id: beatId,
    application_id: a.id,
    tag,
    operator_id: op.id,
    operator_name: op.name,
    type: op.type,
    bindings: { ...a.bindings },
    outcome: a.outcome,
    narrative_directive: bind(a.outcome === 'success' ? op.writer_guidance.success_beat : op.writer_guidance.fail_beat),
    visual_cues: [...op.writer_guidance.visual_cues],
    triggered_risks: a.risks.filter((r) => r.triggered).map((r) => bind(bindRoleNouns(r.text, roles))),
  };
}

/** The declared (or praenomen-implied) gender, as an optional packet field. */
function genderField(c: Character): { gender?: Gender } {
  const g = genderOf(c);
  return g ? { gender: g } : {};
}

/**
 * Pronoun tokens in operator texts ("understands who owns {target:him}") take the bound
 * character's gender (him/her); when the world does not say, the name is repeated instead
 * ("{target:his}" → "Servilia's"), never a guessed pronoun or a singular "them".
 */
export function bindPronouns(text: string, people: Map<string, { name: string; gender?: Gender }>): string {
  return text.replace(/\{(\w+):(he|him|his|himself|He|His)\}/g, (m, role: string, form: string) => {
    const c = people.get(role);
    if (!c) return m;
    const lower = form.toLowerCase() as PronounForm;
    const word = pronoun(genderOf(c), lower) ?? (lower === 'his' ? `${c.name}'s` : c.name);
    return form[0] === 'H' ? word.charAt(0).toUpperCase() + word.slice(1) : word;
  });
}

function moodOf(index: WorldIndex, c: Character, cast: string[], apps: OperatorApplication[]): string {
  let fear = 0, rivalry = 0, affection = 0, trust = 0;
  for (const o of cast) {
    if (o === c.id) continue;
    const w = edgeOf(index, c.id, o)?.weights;
    if (!w) continue;
    fear = Math.max(fear, w.fear); rivalry = Math.max(rivalry, w.rivalry); affection = Math.max(affection, w.affection); trust = Math.max(trust, w.trust);
  }
  const acts = apps.some((a) => a.bindings.actor === c.id);
  if (fear >= 0.5) return 'afraid, hiding it';
  if (rivalry >= 0.6) return acts ? 'hostile and on the attack' : 'hostile, on guard';
  if (affection >= 0.6) return trust >= 0.5 ? 'warm, at ease' : 'fond but uneasy';
  if (acts) return c.stats.courage >= 60 ? 'resolute' : 'calculating';
  return c.stats.cunning >= 70 ? 'watchful' : 'wary';
}

function objectiveOf(index: WorldIndex, ops: Map<string, Operator>, c: Character, apps: OperatorApplication[]): string {
  const name = (id: string) => index.characters.get(id)?.name ?? id;
  for (const a of apps) {
    const op = ops.get(a.operator_id)!;
    if (a.bindings.actor === c.id) {
      const t = a.bindings.target ? ` on ${name(a.bindings.target)}` : '';
      return `${op.name}${t}`;
    }
  }
  for (const a of apps) {
    const op = ops.get(a.operator_id)!;
    if (Object.entries(a.bindings).some(([r, id]) => r !== 'actor' && id === c.id)) return `Withstand ${name(a.bindings.actor!)}'s ${op.name.toLowerCase()}`;
  }
  const d = [...c.bdi.desires].sort((x, y) => y.weight - x.weight)[0];
  return d ? d.text : 'Watch and wait';
}

/** Moods by tension band, taken in turn by scene number so consecutive scenes do not share one. */
const MOODS: [number, string[]][] = [
  [7, ['The air is taut; everyone watches everyone.', 'Nobody sits with their back to a door.', 'Every voice is a little too loud.', 'Tempers are short and blades are near.', 'Men check the exits before they check the faces.', 'The city has the feel of a drawn bow.']],
  [4, ['Uneasy: rumours travel faster than men.', 'Everyone has heard something; nobody says what.', 'Conversations stop when strangers pass.', 'The city is holding its breath.', 'Smiles are thin today.', 'Every greeting is weighed before it is returned.']],
  [0, ['Deceptively calm.', 'Quiet, for now.', 'An ordinary hour, on the surface.', 'The calm of people who have not heard yet.']],
];

/**
 * The place's description (first visit only), the hour, and a mood every third scene, so the same
 * few sentences do not open every scene (an episode that visits many places would otherwise repeat
 * a mood on each first visit).
 */
function atmosphere(description: string, time: string, tension: number, number: number): string {
  const pool = MOODS.find(([min]) => tension >= min)![1];
  // `number` is offset by the episode, so episodes do not repeat each other's moods scene by scene.
  const mood = number % 3 === 1 ? pool[Math.floor((number - 1) / 2) % pool.length]! : '';
  return `${description} ${time.charAt(0).toUpperCase() + time.slice(1)}. ${mood}`.trim();
}

export { canAct };
