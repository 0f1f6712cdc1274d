import type { ResolvedDelta } from '../domain/delta.js';
import type { OperatorApplication } from '../domain/plan.js';
import type { World } from '../domain/world.js';

/**
 * When a secret is put into words (issue 17, item 6): a scene whose moves bind the secret, change
 * it, or let someone learn it (a KNOWS: belief) tells it. The first scene of the season that tells
 * a secret quotes it; every later one refers to it. Within an episode stage D marks it `told` in
 * the packets after that scene; across episodes stage H records the episode in `told_in`.
 */
export function secretsTold(apps: readonly OperatorApplication[], isSecret: (id: string) => boolean): string[] {
  const ids = new Set<string>();
  for (const a of apps) {
    for (const id of Object.values(a.bindings)) if (isSecret(id)) ids.add(id);
    for (const d of a.required_deltas) {
      const seg = d.path.split('.');
      if (seg[0] === 'secrets' && seg[1]) ids.add(seg[1]);
      if (typeof d.value === 'string' && d.value.startsWith('KNOWS:')) ids.add(d.value.slice(6));
    }
  }
  return [...ids];
}

/** secrets.<id>.told_in := episode, for each secret the approved moves told that no earlier episode had. */
export function toldInDeltas(world: World, episodeId: string, apps: readonly OperatorApplication[]): ResolvedDelta[] {
  const secrets = new Map(world.secrets.secrets.map((s) => [s.id, s]));
  return secretsTold(apps, (id) => secrets.has(id))
    .filter((id) => secrets.has(id) && !secrets.get(id)!.told_in)
    .sort()
    .map((id) => ({ path: `secrets.${id}.told_in`, op: 'set' as const, value: episodeId }));
}
