import type { Claim, Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';

/** Kinds that never become canon: always allowed, always downgraded to the cast's beliefs (spec §8.3). */
export const NON_CANON_KINDS = new Set(['rumor', 'belief']);

export interface ClaimsVerdict {
  findings: Finding[];
  accepted: Claim[];
  downgraded: Claim[];
  rejected: Claim[];
}

const ALIVE = /\b(alive|living|lives|survived|survives|breathes|breathing|walks again|not dead|unharmed|recovered)\b/i;

function words(s: string): string[] {
  return s.toLowerCase().match(/[a-z]{4,}/g) ?? [];
}

/** Share of the secret's significant words that the claim repeats. */
function overlap(claim: string, secret: string): number {
  const sw = new Set(words(secret));
  if (sw.size === 0) return 0;
  const cw = new Set(words(claim));
  let n = 0;
  for (const w of sw) if (cw.has(w)) n++;
  return n / sw.size;
}

/**
 * Sorts claims into accepted (canon at commit), downgraded (rumor/belief of the cast) and rejected
 * (a hard finding that forces regeneration): count and kind against allowed_inventions, contradiction
 * with canon (a dead character alive), a hidden secret stated as fact.
 */
export function claimRules(claims: Claim[], ctx: VerifyContext): ClaimsVerdict {
  const pk = ctx.packet;
  const scene = pk.scene_id;
  const v: ClaimsVerdict = { findings: [], accepted: [], downgraded: [], rejected: [] };
  const allowed = pk.constraints.allowed_inventions;
  const allowedKinds = [...new Set([...allowed.kinds, ...NON_CANON_KINDS])];
  const castIds = new Set(pk.cast.map((c) => c.id));
  const dead = [...pk.dead, ...(ctx.characters ?? []).filter((c) => c.status === 'dead')];
  claims.forEach((c, i) => {
    const reject = (f: Finding) => {
      v.findings.push(f);
      v.rejected.push(c);
    };
    if (i >= allowed.max) {
      return reject(finding('AUR5040', 'hard', scene, 'claims.too_many', { count: claims.length, max: allowed.max, claim: c.id }));
    }
    if (!allowedKinds.includes(c.kind)) {
      return reject(finding('AUR5041', 'hard', scene, 'claims.kind_not_allowed', { claim: c.id, kind: c.kind, allowed: allowedKinds.join(', ') }));
    }
    const deadHit = dead.find((d) => c.subject === d.id || [d.name, d.cue].some((n) => n && new RegExp(`\\b${escapeRe(n)}\\b`, 'i').test(c.text)));
    if (deadHit && ALIVE.test(c.text) && !NON_CANON_KINDS.has(c.kind)) {
      return reject(finding('AUR5042', 'hard', scene, 'claims.contradicts_canon', { claim: c.id, detail: `it says ${deadHit.name} is alive`, canon: `${deadHit.name} is dead` }));
    }
    const secret = pk.retrieved_subgraph.secrets.find(
      (s) => s.status === 'hidden' && (c.subject === s.id || overlap(c.text, s.text) >= 0.6),
    );
    if (secret && c.kind === 'fact') {
      if (secret.holders.some((h) => castIds.has(h))) {
        // Someone here knows it: useful, but only as their belief, never as public canon.
        v.downgraded.push({ ...c, kind: 'belief' });
        return;
      }
      return reject(finding('AUR5043', 'hard', scene, 'claims.hidden_secret', { claim: c.id, secret: secret.id }));
    }
    if (NON_CANON_KINDS.has(c.kind)) v.downgraded.push(c);
    else v.accepted.push(c);
  });
  return v;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
