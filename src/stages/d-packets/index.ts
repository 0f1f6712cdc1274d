import type { EpisodeContext } from '../../domain/episode-context.js';
import { prunePacket, type PrunableFacts } from './prune.js';
import type { PacketCastMember, PacketInstruction, ScenePacket, SubgraphEdge } from '../../domain/packet.js';
import type { EpisodePlan, OperatorApplication } from '../../domain/plan.js';
import { isExterior, type Character, type Gender, type Operator, type Relationship, type World } from '../../domain/world.js';
import { genderOf, pronoun, type PronounForm } from '../../core/forms-of-address.js';
import { round, stableStringify } from '../../core/json.js';
import { indexWorld, type WorldIndex } from '../../core/world-index.js';
import { dateText } from '../a-snapshot/index.js';
import { canAct, roleKind, roleOrder } from '../b-proposals/bdi.js';
import { openingWorld, projectPlan } from '../c-director/checks.js';
import { snapshotTension } from '../c-director/metrics.js';
import { StateHasher } from './state-hash.js';

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

const WEIGHTS = ['loyalty', 'fear', 'debt', 'affection', 'rivalry', 'trust'] as const;

/**
 * A world with at most this many hidden secrets (or dead, exiled and imprisoned characters) lists
 * them all in every packet's forbidden facts, as a season-sized world always has. Beyond it (an
 * imported city of thousands) a packet names only those of its retrieved subgraph — the walked
 * characters, whom the writer can see — or the packet would carry the whole world's secrets
 * (240,000 tokens a scene at 10,000 principals) and no budget could hold it.
 */
export const FORBIDDEN_ALL_CAP = 64;

/** Stage D (pure): one self-contained packet per scene, from the plan re-projected over the snapshot. */
export function buildPackets(plan: EpisodePlan, world: World, context: EpisodeContext, options: Partial<PacketOptions> = {}): ScenePacket[] {
  const opts: PacketOptions = { ...DEFAULT_PACKET_OPTIONS, ...options };
  if (opts.k !== 1 && opts.k !== 2) throw new Error(`packet k must be 1 or 2, got ${String(opts.k)}`);
  const projection = projectPlan(plan, world, context);
  const start = openingWorld(world, context);
  const ops = new Map(world.operators.operators.map((o) => [o.id, o]));
  const last = new Map<string, { location: string; day: number }>();
  for (const c of start.characters.characters) last.set(c.id, { location: c.location, day: 0 });
  const snapshotEdges = new Map(world.relationships.relationships.map((r) => [`${r.from}>${r.to}`, r]));
  const sameEdge = (a: Relationship | undefined, b: Relationship): boolean =>
    a === b || (!!a && WEIGHTS.every((w) => (a.weights[w] ?? 0) === (b.weights[w] ?? 0)) && a.flags.length === b.flags.length && a.flags.every((f, i) => b.flags[i] === f));
  const packets: ScenePacket[] = [];
  const visited = new Set<string>();
  // Secrets already told in full by an earlier scene of the episode: later scenes refer to them.
  const told = new Set<string>();
  const hasher = new StateHasher();
  const hiddenCount = world.secrets.secrets.filter((s) => s.status === 'hidden').length;
  const goneCount = world.characters.characters.filter((c) => c.status !== 'alive').length;
  plan.scenes.forEach((scene, i) => {
    const before = projection.before[i]!;
    const index = indexWorld(before);
    const beats = plan.beats.filter((b) => b.scene === scene.id);
    const apps = beats.flatMap((b) => b.applications);
    const location = index.locations.get(scene.location);
    const bound = new Set(apps.flatMap((a) => Object.values(a.bindings)));
    const advanced = new Set(apps.flatMap((a) => a.threads_advanced));

    const cast: PacketCastMember[] = scene.cast.map((id) => {
      const c = index.characters.get(id)!;
      const prev = last.get(id) ?? { location: c.location, day: 0 };
      return {
        id, name: c.name, cue: c.cue, status: c.status,
        ...genderField(c),
        mood: moodOf(index, c, scene.cast, apps),
        objective: objectiveOf(index, ops, c, apps),
        register: c.voice.register, voice_tags: [...c.voice.tags], sample_lines: [...(c.voice.sample_lines ?? [])],
        previous_location: prev.location,
        days_since_previous: Math.max(0, scene.day - prev.day),
      };
    });
    for (const id of scene.cast) last.set(id, { location: scene.location, day: scene.day });

    // ---- GraphRAG-lite: k-hop walk over relationship edges from the cast ----
    const hop = new Map<string, number>(scene.cast.map((id) => [id, 0]));
    let frontier = [...scene.cast];
    for (let h = 1; h <= opts.k; h++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const r of [...(index.edgesFrom.get(id) ?? []), ...(index.edgesTo.get(id) ?? [])]) {
          const other = r.from === id ? r.to : r.from;
          if (!hop.has(other) && index.characters.has(other)) { hop.set(other, h); next.push(other); }
        }
      }
      frontier = next;
    }
    const stakeholders = new Set([...index.threads.values()].filter((t) => t.status === 'open' && (advanced.has(t.id) || t.stakeholders.some((s) => scene.cast.includes(s)))).flatMap((t) => t.stakeholders));
    const edges: SubgraphEdge[] = [];
    for (const r of before.relationships.relationships) {
      if (!hop.has(r.from) || !hop.has(r.to)) continue;
      const changed = !sameEdge(snapshotEdges.get(`${r.from}>${r.to}`), r);
      const inCast = Number(scene.cast.includes(r.from)) + Number(scene.cast.includes(r.to));
      const touchesThread = stakeholders.has(r.from) || stakeholders.has(r.to);
      // Filter (spec §2.2): relevant to the cast, an active thread, or something changed this episode.
      if (inCast === 0 && !touchesThread && !changed) continue;
      const relevance = round(1.5 * inCast + (bound.has(r.from) || bound.has(r.to) ? 1 : 0) + (touchesThread ? 1 : 0) + (changed ? 2 : 0)
        - 0.5 * Math.max(hop.get(r.from)!, hop.get(r.to)!) + 0.5 * Math.max(...WEIGHTS.map((w) => r.weights[w] ?? 0)));
      const weights: Record<string, number> = {};
      for (const w of WEIGHTS) weights[w] = round(r.weights[w] ?? 0);
      edges.push({ from: r.from, to: r.to, weights, flags: [...r.flags], relevance });
    }
    const walked = new Set(hop.keys());
    const secretRel = new Map<string, number>();
    const secrets = [...index.secrets.values()]
      .filter((s) => s.status !== 'inert' && (walked.has(s.subject) || s.holders.some((h) => walked.has(h))))
      // A hidden secret none of the cast holds stays out (it is a forbidden fact instead), unless this scene uses it.
      .filter((s) => s.status !== 'hidden' || s.holders.some((h) => scene.cast.includes(h)) || bound.has(s.id))
      .map((s) => {
        secretRel.set(s.id, round((bound.has(s.id) ? 3 : 0) + (scene.cast.includes(s.subject) ? 1.5 : 0) + s.holders.filter((h) => scene.cast.includes(h)).length + s.legal_value + s.public_damage));
        return { id: s.id, text: s.text, subject: s.subject, holders: [...s.holders], status: s.status, legal_value: round(s.legal_value), public_damage: round(s.public_damage), ...(told.has(s.id) ? { told: true } : {}) };
      });
    const threadRel = new Map<string, number>();
    const threads = [...index.threads.values()]
      .filter((t) => t.status === 'open' && (advanced.has(t.id) || t.stakeholders.some((s) => scene.cast.includes(s))))
      .map((t) => {
        threadRel.set(t.id, round((advanced.has(t.id) ? 3 : 0) + t.priority / 5));
        return { id: t.id, question: t.question, progress: round(t.progress), status: t.status };
      });
    const transferParties = new Set(apps.flatMap((a) => a.required_deltas.flatMap((d) => (d.op === 'transfer' ? [d.from!, d.to!] : []))));
    const accounts = before.assets.cash_ledger
      .filter((a) => scene.cast.includes(a.owner) || transferParties.has(a.id))
      .map((a) => ({ id: a.id, owner: a.owner, denarii: a.denarii }));
    const characters = [...walked].sort().map((id) => {
      const c = index.characters.get(id)!;
      return { id, name: c.name, faction: c.faction, status: c.status, location: c.location, stats: { ...c.stats }, intentions: [...c.bdi.intentions] };
    });

    const sequence: PacketInstruction[] = beats.flatMap((b) => b.applications.map((a, j) => instruction(world, index, ops.get(a.operator_id)!, a, b.id, j === 0 ? b.tag : null)));
    const allGone = goneCount <= FORBIDDEN_ALL_CAP;
    const dead = before.characters.characters.filter((c) => c.status === 'dead' && (allGone || walked.has(c.id))).map((c) => ({ id: c.id, name: c.name, cue: c.cue }));
    const forbidden: string[] = [];
    const allHidden = hiddenCount <= FORBIDDEN_ALL_CAP;
    const prunable: PrunableFacts = { secrets: [], dead: [] };
    const near = (id: string) => (scene.cast.includes(id) ? 2 : hop.has(id) ? 1 / (1 + hop.get(id)!) : 0);
    for (const s of index.secrets.values()) {
      if (s.status !== 'hidden' || s.holders.some((h) => scene.cast.includes(h)) || bound.has(s.id)) continue;
      if (!allHidden && !walked.has(s.subject) && !s.holders.some((h) => walked.has(h))) continue;
      const text = forbiddenSecretFact(s.text);
      forbidden.push(text);
      prunable.secrets.push({ id: s.id, text, relevance: round(near(s.subject) + Math.max(0, ...s.holders.map(near)) + s.legal_value + s.public_damage) });
    }
    for (const d of dead) {
      const text = `${d.name} is dead: may be mentioned, never speaks or acts`;
      forbidden.push(text);
      prunable.dead.push({ id: d.id, text, relevance: round(near(d.id)) });
    }
    for (const c of before.characters.characters) if ((c.status === 'exiled' || c.status === 'imprisoned') && (allGone || walked.has(c.id))) forbidden.push(`${c.name} is ${c.status} and cannot appear`);
    forbidden.push(`Only the cast (${cast.map((c) => c.name).join(', ')}) speak or act on stage`);
    for (const m of cast) if (m.previous_location !== scene.location) forbidden.push(`${m.name} arrives from ${index.locations.get(m.previous_location)?.name ?? m.previous_location} (${m.days_since_previous} day(s) since their last scene) and is nowhere else meanwhile`);

    const isLast = i === plan.scenes.length - 1;
    const revisit = visited.has(scene.location);
    visited.add(scene.location);
    const tellsNow = secretsTold(apps, index);
    const tension = snapshotTension(before);
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
        atmosphere: atmosphere(revisit ? '' : location?.description ?? '', scene.time_of_day, tension, scene.number + 5 * (Number(plan.episode_id.replace(/\D/g, '')) || 0)),
      },
      cast,
      dead,
      retrieved_subgraph: { k: opts.k, characters, edges: edges.sort((a, b) => b.relevance - a.relevance || `${a.from}>${a.to}`.localeCompare(`${b.from}>${b.to}`)), secrets, threads, accounts },
      pruned: [],
      director_instructions: { purpose: scene.purpose, sequence },
      constraints: {
        required_deltas: apps.flatMap((a) => a.required_deltas.map((d) => ({ ...d, application_id: a.id }))),
        forbidden_facts: forbidden,
        allowed_inventions: { max: opts.allowedInventions.max, kinds: [...opts.allowedInventions.kinds] },
        hook_requirement: isLast
          ? `End on the cliffhanger: ${sequence.find((s) => s.tag === 'cliffhanger')?.narrative_directive ?? sequence[sequence.length - 1]?.narrative_directive ?? ''} Leave the question open.`
          : `End on a button line: a hook that turns toward what comes next (${plainPurpose(plan.scenes[i + 1]!.purpose)}).`,
      },
      state_hash_before: hasher.hash(before),
      token_estimate: 0,
      token_budget: opts.tokenBudget,
    };
    prunePacket(packet, opts.tokenBudget, secretRel, threadRel, prunable);
    packets.push(packet);
    for (const id of tellsNow) told.add(id);
  });
  return packets;
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

/** Secrets a scene's moves put into words: bound to a move, or changed by one (status, holders, someone KNOWS). */
function secretsTold(apps: OperatorApplication[], index: WorldIndex): string[] {
  const ids = new Set<string>();
  for (const a of apps) {
    for (const id of Object.values(a.bindings)) if (index.secrets.has(id)) ids.add(id);
    for (const d of a.required_deltas) {
      const seg = d.path.split('.');
      if (seg[0] === 'secrets' && seg[1]) ids.add(seg[1]);
      if (typeof d.value === 'string' && d.value.startsWith('KNOWS:')) ids.add(d.value.slice(6));
    }
  }
  return [...ids];
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
    const w = index.edges.get(`${c.id}>${o}`)?.weights;
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

/** How a packet forbids a hidden secret no one in the cast holds (read back by the verifier's claim rules). */
const FORBIDDEN_SECRET = 'No one here knows it, so it must not be stated as fact: ';

export function forbiddenSecretFact(text: string): string {
  return `${FORBIDDEN_SECRET}"${text}"`;
}

/** The secret's text of a forbidden fact written by forbiddenSecretFact, else null. */
export function forbiddenSecretText(fact: string): string | null {
  return fact.startsWith(FORBIDDEN_SECRET) ? fact.slice(FORBIDDEN_SECRET.length).replace(/^"|"$/g, '') : null;
}
