import type { OfficeTier, SourcePerson, SourceTie } from '../model.js';
import { characterId, romanName } from './names.js';
import { COLLEGIAL, higherTier, isDefeat, isMilitary, isPriesthood, isTriumph, officeTier, TIER_DIGNITAS } from './offices.js';
import { COLLEAGUE, tieTemplate } from './relations.js';
import type { DprrPerson, DprrPost, DprrTables } from './tables.js';
import { compareText } from '../../core/text-order.js';

export interface DprrSelection {
  /** Ranked: the living by prominence, then the dead by prominence. */
  persons: SourcePerson[];
  ties: SourceTie[];
  /** DPRR persons active in the window before --limit was applied. */
  active: number;
}

/**
 * Prominence: how much a Roman audience would know the name. Drives ranking (who becomes a
 * principal, who survives --limit). Ties break on the DPRR person id, so the order is total.
 */
export function prominence(p: SourcePerson): number {
  return TIER_DIGNITAS[p.tier] * 2 + p.offices.length * 3 + p.consulships * 12 + p.triumphs * 10 + p.priesthoods * 4 + (p.nobilis ? 6 : 0);
}

function toSource(p: DprrPerson, posts: DprrPost[], toYear: number): SourcePerson {
  const held = posts.filter((o) => o.date_start <= toYear);
  let tier: OfficeTier = 'none';
  const offices: { name: string; year: number }[] = [];
  const seen = new Set<string>();
  let consulships = 0, triumphs = 0, priesthoods = 0, military = 0, defeats = 0;
  for (const o of held) {
    if (isDefeat(o.office_name)) {
      defeats++;
      continue;
    }
    if (isTriumph(o.office_name)) triumphs++;
    if (/^consul( suffectus)?$/.test(o.office_name)) consulships++;
    if (isPriesthood(o.office_name)) priesthoods++;
    if (isMilitary(o.office_name)) military++;
    if (!isTriumph(o.office_name)) tier = higherTier(tier, officeTier(o.office_name));
    const key = `${o.office_name}/${o.date_start}`;
    if (!seen.has(key)) {
      seen.add(key);
      offices.push({ name: o.office_name, year: o.date_start });
    }
  }
  const eques = /^eq\b/.test(p.highest_office);
  if (tier === 'none' && eques) tier = 'eques';
  const n = romanName(p);
  offices.sort((a, b) => a.year - b.year || compareText(a.name, b.name));
  return {
    id: characterId(p),
    name: n.name,
    cue: n.cue,
    longCue: n.longCue,
    female: p.sex === 'Female',
    alive: true,
    nomen: p.nomen,
    patrician: p.is_patrician,
    nobilis: p.is_nobilis,
    novus: p.is_novus,
    eques,
    tier,
    highest_office: p.highest_office,
    offices,
    consulships,
    triumphs,
    priesthoods,
    military,
    defeats,
    source_ref: `DPRR ${p.dprr_id}`,
    era: [p.era_from, p.era_to],
    origin: p.origin.replace(/\?$/, ''),
  };
}

/**
 * The persons active in [from, to] (their DPRR era overlaps the window), ranked, cut to `limit`,
 * with the family, marriage and colleague ties among them. A person whose era ends before the
 * world's year (the `to` year) is dead at the world date. DPRR's era_to 0 means "no known end".
 */
export function selectDprr(t: DprrTables, from: number, to: number, limit: number | undefined): DprrSelection {
  const postsBy = new Map<number, DprrPost[]>();
  for (const o of t.posts) {
    let l = postsBy.get(o.person_id);
    if (!l) postsBy.set(o.person_id, (l = []));
    l.push(o);
  }
  const activeRows = t.persons.filter((p) => p.era_from <= to && (p.era_to >= from || p.era_to === 0));
  const byPid = new Map<number, SourcePerson>();
  const scored = activeRows.map((p) => {
    const s = toSource(p, postsBy.get(p.person_id) ?? [], to);
    s.alive = p.era_to === 0 || p.era_to >= to;
    byPid.set(p.person_id, s);
    return { s, pid: p.person_id, score: prominence(s) };
  });
  scored.sort((a, b) => Number(b.s.alive) - Number(a.s.alive) || b.score - a.score || a.pid - b.pid);
  const kept = limit === undefined ? scored : scored.slice(0, limit);
  const keptPids = new Set(kept.map((k) => k.pid));

  const ties: SourceTie[] = [];
  for (const r of t.relations) {
    if (!keptPids.has(r.person_id) || !keptPids.has(r.related_person_id) || r.person_id === r.related_person_id) continue;
    const tpl = tieTemplate(r.relationship);
    const scale = r.is_uncertain ? 0.8 : 1;
    const weights = Object.fromEntries(Object.entries(tpl.weights).map(([k, v]) => [k, v! * scale]));
    ties.push({
      from: byPid.get(r.person_id)!.id,
      to: byPid.get(r.related_person_id)!.id,
      weights,
      flags: r.is_uncertain ? [...tpl.flags, 'uncertain'] : [...tpl.flags],
    });
  }
  // Colleagues: the same collegial office in the same year, both kept, both holding it by the world date.
  const colleges = new Map<string, number[]>();
  for (const o of t.posts) {
    if (!keptPids.has(o.person_id) || !COLLEGIAL.has(o.office_name) || o.date_start > to) continue;
    const key = `${o.office_name}/${o.date_start}`;
    let l = colleges.get(key);
    if (!l) colleges.set(key, (l = []));
    if (!l.includes(o.person_id)) l.push(o.person_id);
  }
  for (const key of [...colleges.keys()].sort()) {
    const pids = colleges.get(key)!.sort((a, b) => a - b);
    for (const a of pids)
      for (const b of pids)
        if (a !== b) ties.push({ from: byPid.get(a)!.id, to: byPid.get(b)!.id, weights: { ...COLLEAGUE.weights }, flags: [...COLLEAGUE.flags] });
  }
  return { persons: kept.map((k) => k.s), ties, active: activeRows.length };
}
