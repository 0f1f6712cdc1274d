import type { Normalisation } from '../../../domain/scene.js';
import type { NormaliseContext, Resolver } from './ids.js';

/**
 * The CLAIMS value read in the forms models write (issue 13): a kind written as a synonym
 * (`character`, `person`, `location`, `item`, `rumour`) is the nearest kind of the schema, a
 * subject written as a name is its id, fields the schema does not know are noted and left out.
 * Whether a claim is accepted, downgraded or rejected is the verifier's call (rules/claims.ts).
 */
const KINDS = new Set(['minor_character', 'object', 'place_detail', 'rumor', 'fact', 'belief']);
const SYNONYMS: Record<string, string> = {
  character: 'minor_character',
  minor_characters: 'minor_character',
  person: 'minor_character',
  npc: 'minor_character',
  extra: 'minor_character',
  new_character: 'minor_character',
  item: 'object',
  prop: 'object',
  thing: 'object',
  place: 'place_detail',
  location: 'place_detail',
  setting: 'place_detail',
  place_details: 'place_detail',
  location_detail: 'place_detail',
  rumour: 'rumor',
  gossip: 'rumor',
  opinion: 'belief',
  event: 'fact',
  historical_fact: 'fact',
};
const CLAIM_FIELDS = new Set(['id', 'kind', 'text', 'subject']);

type Obj = Record<string, unknown>;

export function normaliseClaims(value: unknown, r: Resolver, ctx: NormaliseContext, notes: Normalisation[]): unknown {
  if (!Array.isArray(value)) return value;
  const secretIds = new Set(ctx.packet.retrieved_subgraph.secrets.map((s) => s.id));
  const claims: unknown[] = structuredClone(value);
  claims.forEach((c, i) => {
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return;
    const o = c as Obj;
    const where = `claim ${typeof o.id === 'string' ? o.id : `#${i + 1}`}`;
    if (typeof o.kind === 'string' && !KINDS.has(o.kind)) {
      const k = o.kind.trim().toLowerCase().replace(/[\s-]+/g, '_');
      const to = KINDS.has(k) ? k : SYNONYMS[k];
      if (to) {
        notes.push({ code: 'claim_kind', what: `${where}: kind "${o.kind}" read as "${to}"`, why: `"${o.kind}" is the model's word for the schema's ${to}` });
        o.kind = to;
      }
    }
    if (typeof o.subject === 'string' && !secretIds.has(o.subject)) {
      const id = r.character(o.subject) ?? [...secretIds].find((s) => s.toLowerCase() === String(o.subject).toLowerCase());
      if (id && id !== o.subject) {
        notes.push({ code: 'id_resolved', what: `${where}: subject "${o.subject}" read as "${id}"`, why: `"${o.subject}" names exactly one character or secret of this scene` });
        o.subject = id;
      }
    }
    for (const k of Object.keys(o)) {
      if (CLAIM_FIELDS.has(k)) continue;
      notes.push({ code: 'field_ignored', what: `${where}: ignored field "${k}": ${JSON.stringify(o[k])}`, why: 'the field is not part of the claims schema' });
      delete o[k];
    }
  });
  return claims;
}
