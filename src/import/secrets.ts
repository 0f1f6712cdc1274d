import { round } from '../core/json.js';
import type { Rng } from '../core/rng.js';
import type { Relationship, Secret } from '../domain/world.js';
import type { SourcePerson } from './model.js';
import { cityYear, officeWords, SECRET_TEMPLATES } from './invent.js';
import { officeTier } from './dprr/offices.js';

/** Invented secrets: about a third of the principals carry one, a few of the others too; held by kin or principals. */
export function inventSecrets(persons: SourcePerson[], relationships: Relationship[], principalIds: Set<string>, principalList: string[], byId: Map<string, SourcePerson>, sRng: Rng): Secret[] {
  const nameOf = (id: string) => byId.get(id)?.name ?? id;
  const secrets: Secret[] = [];
  const outgoing = new Map<string, string[]>();
  for (const e of relationships) {
    const l = outgoing.get(e.from);
    if (l) l.push(e.to);
    else outgoing.set(e.from, [e.to]);
  }
  const kinOf = (id: string) => outgoing.get(id) ?? [];
  for (const p of persons) {
    if (!p.alive) continue;
    const r = sRng.fork(p.id);
    const chance = principalIds.has(p.id) ? 0.6 : 0.04;
    if (r.next() >= chance && !(principalIds.has(p.id) && secrets.length < 6)) continue;
    const tpl = r.pick(SECRET_TEMPLATES);
    const near = kinOf(p.id).filter((id) => byId.get(id)?.alive);
    const pool = near.length ? near : principalList.filter((id) => id !== p.id);
    const holders = pool.length ? [...new Set([r.pick(pool), ...(r.next() < 0.4 ? [r.pick(pool)] : [])])].sort() : [];
    const office = officeWhile(p.offices);
    secrets.push({
      id: `sec_${String(secrets.length + 1).padStart(4, '0')}`,
      text: tpl.text(p.name, holders.length ? nameOf(holders[0]) : 'a freedman', office),
      subject: p.id,
      holders,
      legal_value: round(Math.min(1, Math.max(0.2, tpl.legal + (r.next() - 0.5) * 0.2)), 2),
      public_damage: round(Math.min(1, Math.max(0.2, tpl.pub + (r.next() - 0.5) * 0.2)), 2),
      half_life_episodes: tpl.half + r.int(3),
      status: r.next() < 0.2 ? 'rumored' : 'hidden',
    });
  }
  return secrets;
}

/**
 * The office a secret says its subject held ("while proconsul in the year 691 of the City"): the last
 * one actually held (an electoral defeat or a designation is none), without DPRR's editorial glosses
 * ("legatus (lieutenant)", "senator - office unknown"). The text reaches the prose when a scene
 * reveals the secret, so it is dated as a Roman would (cityYear), never "63 BC".
 */
function officeWhile(offices: SourcePerson['offices']): string {
  const held = offices.filter((o) => officeTier(o.name) !== 'none');
  const last = held[held.length - 1];
  if (!last) return 'a magistrate\'s clerk';
  return `${officeWords(last.name)} in ${cityYear(last.year)}`;
}
