import type { Finding, FindingSpan, SceneEvent } from '../../../domain/scene.js';
import { spanOf } from '../prose/span.js';
import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import { finding, textLines, type KnownCharacter, type VerifyContext } from '../context.js';
import { extractSpeeches, normalizeCue } from '../dialogue.js';

/** Collective cues a crowd may speak under without being a character. */
const COLLECTIVE = new Set(['CROWD', 'ALL', 'VOICES', 'VOICE', 'SEVERAL']);

interface Who {
  id: string;
  name: string;
  dead: boolean;
  inCast: boolean;
  location?: string;
}

/** Praenomina are shared by half the Senate: never a cue on their own. */
const PRAENOMINA = new Set(['MARCUS', 'GAIUS', 'LUCIUS', 'PUBLIUS', 'QUINTUS', 'GNAEUS', 'TITUS', 'DECIMUS', 'SERVIUS', 'AULUS', 'SEXTUS', 'TIBERIUS', 'APPIUS', 'MANIUS', 'SPURIUS', 'NUMERIUS', 'MAMERCUS']);

/** Every name a character may be cued by: the cue, the full name, and each nomen/cognomen. */
function cuesOf(c: { name: string; cue: string }): string[] {
  const n = c.name.toUpperCase();
  const parts = n.split(/\s+/).filter((x) => x.length >= 4 && !PRAENOMINA.has(x));
  return [...new Set([normalizeCue(c.cue), n, ...parts].filter(Boolean))];
}

/** Who a scene's cues and ids name: the world's people with the packet's over them. */
export interface WhoIndex {
  byCue: { get(cue: string): Who | undefined; has(cue: string): boolean };
  byId: { get(id: string): Who | undefined };
}

function mergeWho(byId: Map<string, Who>, prior: Who | undefined, c: KnownCharacter, inCast: boolean, dead: boolean): void {
  byId.set(c.id, {
    id: c.id,
    name: c.name,
    dead: dead || (prior?.dead ?? false),
    inCast: inCast || (prior?.inCast ?? false),
    location: prior?.location ?? c.location,
  });
}

/**
 * The world's people and cues, once per list of the world's characters (the episode's verify
 * context). Why (issue 18, seventeenth pass): every scene's index registered every character of the
 * world again, ~10 ms a scene at 10,000 characters; a scene now adds only its packet's people.
 */
const worldWho = new WeakMap<readonly KnownCharacter[], { byId: Map<string, Who>; byCue: Map<string, string> }>();
const NO_CHARACTERS: KnownCharacter[] = [];

function worldWhoOf(characters: readonly KnownCharacter[]): { byId: Map<string, Who>; byCue: Map<string, string> } {
  let w = worldWho.get(characters);
  if (w) return w;
  const byId = new Map<string, Who>();
  for (const c of characters) mergeWho(byId, byId.get(c.id), c, false, c.status === 'dead');
  const byCue = new Map<string, string>();
  for (const c of characters) for (const k of cuesOf(c)) if (!byCue.has(k)) byCue.set(k, c.id);
  worldWho.set(characters, (w = { byId, byCue }));
  return w;
}

export function whoIndex(ctx: VerifyContext): WhoIndex {
  const world = worldWhoOf(ctx.characters ?? NO_CHARACTERS);
  const scene = new Map<string, Who>();
  const p = ctx.packet;
  const add = (c: KnownCharacter, inCast: boolean, dead: boolean) => mergeWho(scene, scene.get(c.id) ?? world.byId.get(c.id), c, inCast, dead);
  const subgraph = p.retrieved_subgraph.characters.map((c) => ({ id: c.id, name: c.name, cue: c.name.split(/\s+/).pop()!, status: c.status, location: c.location }));
  for (const c of subgraph) add(c, false, c.status === 'dead');
  for (const d of p.dead) add({ ...d, status: 'dead' }, false, true);
  for (const c of p.cast) add(c, true, c.status === 'dead');
  const byId = { get: (id: string) => scene.get(id) ?? world.byId.get(id) };
  // Cast cues win over others that share a name part; first registration wins otherwise: the cast,
  // the dead, the world's characters, then the subgraph's.
  const first = new Map<string, string>();
  for (const c of [...p.cast, ...p.dead]) for (const k of cuesOf(c)) if (!first.has(k)) first.set(k, c.id);
  const last = new Map<string, string>();
  for (const c of subgraph) for (const k of cuesOf(c)) if (!last.has(k)) last.set(k, c.id);
  const idOf = (k: string) => first.get(k) ?? world.byCue.get(k) ?? last.get(k);
  const byCue = {
    get: (k: string) => {
      const id = idOf(k);
      return id === undefined ? undefined : byId.get(id);
    },
    has: (k: string) => idOf(k) !== undefined,
  };
  return { byCue, byId };
}

/** Dead characters who speak or act, speakers/actors outside the cast, teleportation. */
/** `claimedExtras` is null when the CLAIMS section is unusable: then unknown cues are not judged (no cascade). */
/** `who` is whoIndex(ctx), when the caller has it already (verify.ts reads its cues for the cue notes too). */
export function presenceRules(p: ParsedWriterOutput, ctx: VerifyContext, eventsUsable: boolean, claimedExtras: string[] | null, who: WhoIndex = whoIndex(ctx)): Finding[] {
  const out: Finding[] = [];
  const pk = ctx.packet;
  const scene = pk.scene_id;
  const { byCue, byId } = who;
  const castNames = pk.cast.map((c) => c.name).join(', ');
  const here = pk.setting.location;
  const teleported = new Set<string>();

  const teleportCheck = (w: Who, span?: FindingSpan) => {
    if (w.inCast || w.dead || teleported.has(w.id) || !w.location || w.location === here || !ctx.travelDays) return;
    const days = ctx.travelDays(w.location, here);
    // A character not planned into this scene has no travel time budgeted for it.
    if (days === undefined || days <= 0) return;
    teleported.add(w.id);
    out.push(finding('AUR5014', 'hard', scene, 'invariant.teleport', { name: w.name, location: pk.setting.location_name, from: w.location, days, available: 0 }, span));
  };

  const speeches = extractSpeeches(textLines(p), byCue);
  const seen = new Set<string>();
  for (const s of speeches) {
    const w = byCue.get(s.cue);
    const key = `${s.cue}`;
    if (w?.dead) {
      if (!seen.has(key)) out.push(finding('AUR5010', 'hard', scene, 'invariant.dead_speaks', { name: w.name }, spanOf(s, s.cue)));
      seen.add(key);
      continue;
    }
    if (w && !w.inCast) {
      if (!seen.has(key)) {
        out.push(finding('AUR5012', 'hard', scene, 'cast.speaker_not_in_cast', { name: w.name, cast: castNames }, spanOf(s, s.cue)));
        teleportCheck(w, spanOf(s, s.cue));
      }
      seen.add(key);
      continue;
    }
    if (!w && claimedExtras && !COLLECTIVE.has(s.cue) && !claimedExtras.some((x) => x.includes(s.cue))) {
      if (!seen.has(key)) out.push(finding('AUR5012', 'hard', scene, 'cast.speaker_not_in_cast', { name: s.cue, cast: castNames }, spanOf(s, s.cue)));
      seen.add(key);
    }
  }

  if (eventsUsable) {
    for (const e of p.events as SceneEvent[]) {
      if (e.actor) {
        const w = byId.get(e.actor);
        if (w?.dead) out.push(finding('AUR5011', 'hard', scene, 'invariant.dead_acts', { name: w.name, event: e.id }));
        else if (!w || !w.inCast) {
          out.push(finding('AUR5013', 'hard', scene, 'cast.actor_not_in_cast', { event: e.id, name: w?.name ?? e.actor, role: 'actor', cast: castNames }));
          if (w) teleportCheck(w);
        }
      }
    }
  }

  // Cast members whose previous scene was too far away for the days between (a planning defect, still a hard fail).
  if (ctx.travelDays) {
    for (const c of pk.cast) {
      if (!c.previous_location || c.previous_location === here) continue;
      const days = ctx.travelDays(c.previous_location, here);
      if (days !== undefined && days > c.days_since_previous) {
        out.push(finding('AUR5014', 'hard', scene, 'invariant.teleport', { name: c.name, location: pk.setting.location_name, from: c.previous_location, days, available: c.days_since_previous }));
      }
    }
  }
  return out;
}
