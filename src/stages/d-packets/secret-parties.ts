import type { Secret } from '../../domain/world.js';
import { registerPatch } from '../../core/world-index.js';
import { OverlayMap } from '../../core/overlay-map.js';

/** Each id's secrets (as subject or holder), in list order, and each listed secret's place. */
export interface SecretParties {
  by: ReadonlyMap<string, readonly Secret[]>;
  at: ReadonlyMap<Secret, number>;
}

/** A secret's parties: its subject, then its holders, each once. */
const partiesOf = (s: Secret): Set<string> => new Set([s.subject, ...s.holders]);

/**
 * Each id's secrets (as subject or holder) and each secret's place, the first of each id only (as
 * the world index holds them). Memoised per secrets list (retrieve.ts secretsAround), and derived for
 * a copy-on-write copy (below).
 */
export function secretParties(list: readonly Secret[]): SecretParties {
  const by = new Map<string, Secret[]>();
  const at = new Map<Secret, number>();
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s.id)) return;
    seen.add(s.id);
    at.set(s, i);
    for (const party of partiesOf(s)) (by.get(party) ?? by.set(party, []).get(party)!).push(s);
  });
  return { by, at };
}

/**
 * secretParties of a copy from its original's (issue 18): a scene that changes a secret (its status,
 * damage or holders) copies the list, and on the 10,000-character world rebuilding the parties of
 * ~4,000 secrets for each such state was ~40 ms a time, six times a plan. A replaced secret must keep
 * its id; if it was the first of its id, it takes the old one's place in the lists of the parties
 * they share, leaves those it no longer has and joins new ones at its place in list order, so every
 * list is the one a rebuild makes. Anything else (an id changed, a secret appended) is rebuilt.
 */
function patchSecretParties(prevValue: unknown, original: readonly object[], items: readonly object[], changed: readonly number[]): SecretParties | undefined {
  if (items.length !== original.length) return undefined;
  const prev = prevValue as SecretParties;
  const at = new Map<Secret, number>();
  const lists = new Map<string, Secret[]>();
  const placeOf = (s: Secret): number => at.get(s) ?? prev.at.get(s)!;
  const listOf = (party: string): Secret[] => {
    let l = lists.get(party);
    if (!l) lists.set(party, (l = [...(prev.by.get(party) ?? [])]));
    return l;
  };
  for (const i of changed) {
    const old = original[i] as Secret;
    const nw = items[i] as Secret;
    if (old.id !== nw.id) return undefined;
    if (prev.at.get(old) !== i) continue; // a later duplicate of its id: not listed, nor is its replacement
    at.set(nw, i);
    const before = partiesOf(old);
    const after = partiesOf(nw);
    for (const party of before) {
      const l = listOf(party);
      const k = l.indexOf(old);
      if (after.has(party)) l[k] = nw;
      else l.splice(k, 1);
    }
    for (const party of after) {
      if (before.has(party)) continue;
      const l = listOf(party);
      let k = l.length;
      while (k > 0 && placeOf(l[k - 1]!) > i) k--;
      l.splice(k, 0, nw);
    }
  }
  return {
    by: lists.size ? OverlayMap.derive(prev.by, lists) : prev.by,
    at: at.size ? OverlayMap.derive(prev.at, at) : prev.at,
  };
}
registerPatch(secretParties, patchSecretParties);
