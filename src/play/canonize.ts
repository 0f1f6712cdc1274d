import path from 'node:path';
import { stableStringify } from '../core/json.js';
import { worldFileText } from '../core/json-layout.js';
import { applyDeltas } from '../core/deltas/index.js';
import type { ScenePacket } from '../domain/packet.js';
import { WORLD_FILES, type CanonFact, type World } from '../domain/world.js';
import type { ResolvedDelta } from '../domain/delta.js';
import { RUNS_DIR } from '../paths.js';
import { loadWorldOrThrow } from '../store/load.js';
import { withLock } from '../pipeline/lock.js';
import { requireCleanWorld } from '../pipeline/clean-world.js';
import { createGit } from '../git/adapter.js';
import { inOwnProcessGroup } from '../git/exec.js';
import type { GitPort } from '../git/port.js';
import { notesRel } from '../season/notes.js';
import { refuseHalfMadeBranch } from '../season/branch-journal.js';
import { commitEpisode, recoverPendingCommits } from '../pipeline/transaction.js';
import { resolveLexicon } from '../stages/f-verifier/load.js';
import type { LexiconEntry } from '../stages/e-writer/types.js';
import { verifyProposals } from './verify.js';
import { playNotesFile } from './notes.js';
import { canonRecordRel, canonTag, committedCanonization, type Canonized } from './reconcile.js';
import type { PlayState } from './state.js';
import type { Proposal } from './types.js';

/** A delta applied by play: provenance is the session, the scene and the turns that support it. */
export interface PlayAppliedDelta extends ResolvedDelta {
  proposal: string;
  provenance: { session: string; scene: string; turns: string[] };
  before: unknown;
  after: unknown;
}

/** The result; `scene_findings`: stage F's hard findings about the scene that name no proposal (`CODE message`), shown to the user, not binding. */
export type CanonizeResult = Canonized;

/**
 * Refuse uncommitted edits to what a canonization rewrites from the files on disk (exit 8, AUR6001,
 * the check of `episode run`): the world files (loaded, the deltas applied, written back whole) and
 * the season notes. A canonization commits only the paths it writes, but a hand edit inside one of
 * them would go out in its commit as the session's. Play takes no --allow-dirty: the edit is the
 * user's to commit or discard. Checked before a session starts (run.ts, `readOnly`: a refused
 * session writes nothing) and again under the lock before each commit (the user may edit meanwhile).
 */
export function refuseUncommittedEdits(git: GitPort, season: number, opts: { readOnly?: boolean } = {}): Promise<void> {
  return requireCleanWorld(git, ['world', notesRel(season)], { allowDirtyFlag: false, readOnly: opts.readOnly });
}

/** What AUR6035 says play cannot do on a half-made what-if branch. */
export const CANONIZE_BLOCKED = "a play session's scene cannot be canonized on it";

/**
 * The canonization gate (seed 004): the staged proposals are judged by stage F (verify.ts: the
 * session as a scene under test, every stage F rule) and by the delta engine's own checks (path,
 * op, range, entity) as they apply, the accepted ones applied to the
 * world on disk, and world files + the canon record + season notes go out as ONE commit through
 * the pipeline's journaled transaction, under the run lock (so two sessions, or a session and
 * `episode run`, are serialised). Rejected proposals keep their reasons in the session log. An
 * uncommitted edit to the world or the notes refuses the commit (exit 8, nothing written).
 */
export async function canonize(root: string, s: PlayState, packet: ScenePacket, trigger: string, trailers: string[] = []): Promise<CanonizeResult> {
  // The commit's git commands (and a roll-forward's) run in a process group of their own, as an episode's do: a
  // terminal's Ctrl-C reaches this process alone and the commit under way is finished first. In the terminal's
  // group, git was killed by it and the canonization rolled back (exit 130).
  return withLock(root, `play ${s.session}`, () => inOwnProcessGroup(async () => {
    await recoverPendingCommits(root);
    const n = s.canonizations + 1;
    const git = createGit(root, { batch: true });
    try {
      // Committed by a process killed before its `canonized` record (the roll-forward above may
      // just have finished it): read back, never judged and applied again (reconcile.ts).
      return (await committedCanonization(git, s, n)) ?? (await judgeAndCommit(git, root, s, packet, trigger, n, trailers));
    } finally {
      git.close();
    }
  }));
}

/** Judge the pending proposals, apply the accepted ones and commit them as canonization `n` (see canonize). */
async function judgeAndCommit(git: GitPort, root: string, s: PlayState, packet: ScenePacket, trigger: string, n: number, trailers: string[]): Promise<CanonizeResult> {
  const { world } = await loadWorldOrThrow(root);
  const pending = s.proposals.filter((p) => p.status === 'pending');
  const judged = judge(world, packet, pending, s, resolveLexicon(root).entries);
  const files: Record<string, string> = {};
  for (const key of Object.keys(WORLD_FILES) as (keyof World)[]) {
    // Changed or not by value (canonical text); written as its author laid the file out (core/json-layout.ts).
    if (stableStringify(judged.world[key]) !== stableStringify(world[key])) files[WORLD_FILES[key]] = worldFileText(judged.world[key], world[key]);
  }
  // Only what no earlier canonization committed (the state keeps those too, for `session show`).
  const notes = s.notes.filter((x) => x.canonization === null);
  const threads = s.threads.filter((x) => x.canonization === null);
  if (notes.length || threads.length) {
    const named = (text: string) => world.characters.characters.filter((c) => new RegExp(`\\b(${c.id}|${c.name.split(' ').at(-1)})\\b`, 'i').test(text)).map((c) => c.id);
    const file = playNotesFile(root, s.setup.season, { session: s.session, principal: s.setup.principal, notes, threads, named });
    files[file.rel] = file.content;
  }
  // Nothing to write: the judged proposals (if any) change nothing. They are resolved all the same
  // (unchanged), or they would stay pending in every later checkpoint.
  if (Object.keys(files).length === 0 && judged.rejectedIds.length === 0) return { commit: null, accepted: judged.acceptedIds, unchanged: judged.unchangedIds, rejected: {}, scene_findings: judged.scene };
  const record = { format: 1, session: s.session, scene: s.setup.scene, episode: s.setup.episode, trigger, checkpoint: n, deltas: judged.applied, claims: judged.claims, rejected: judged.rejected, ...(judged.scene.length ? { scene_findings: judged.scene } : {}) };
  files[canonRecordRel(s, n)] = stableStringify(record);
  const turns = [...new Set(judged.applied.flatMap((d) => d.provenance.turns))].sort();
  const message = [
    `play ${s.session}: canonize ${s.setup.scene} (${judged.acceptedIds.length} accepted, ${judged.rejectedIds.length} rejected)`,
    '',
    `Aureus-Session: ${s.session}`,
    `Aureus-Scene: ${s.setup.scene}`,
    `Aureus-Trigger: ${trigger}`,
    `Aureus-Turns: ${turns.join(', ') || '(none)'}`,
    `Aureus-Accepted: ${judged.acceptedIds.join(', ') || '(none)'}`,
    `Aureus-Rejected: ${judged.rejectedIds.join(', ') || '(none)'}`,
    ...(judged.unchangedIds.length ? [`Aureus-Unchanged: ${judged.unchangedIds.join(', ')}`] : []),
    ...trailers,
  ].join('\n');
  const runDir = path.join(root, RUNS_DIR, `play-${s.session}-${n}`);
  // Checked only when there is something to commit: a canonization with nothing staged writes nothing.
  await refuseUncommittedEdits(git, s.setup.season);
  // On a what-if branch a kill left half made, the commit would hide that it is: it would no longer
  // point at its --from commit, so it would read as made, without its what-if change (AUR6035, as
  // every committing command). Refused under the lock; session.ts keeps the proposals staged.
  await refuseHalfMadeBranch(root, CANONIZE_BLOCKED, git);
  const res = await commitEpisode(root, runDir, { episode: canonTag(s.session, n), tag: canonTag(s.session, n), message, files }, { git });
  return { commit: res.commit, accepted: judged.acceptedIds, unchanged: judged.unchangedIds, rejected: Object.fromEntries(judged.rejected.map((r) => [r.id, r.reason])), scene_findings: judged.scene };
}

interface Judged {
  world: World;
  applied: PlayAppliedDelta[];
  claims: CanonFact[];
  rejected: { id: string; reason: string }[];
  acceptedIds: string[];
  /** Judged and not rejected, but they write nothing: a delta already so, a claim kept as the cast's word (not canon). */
  unchangedIds: string[];
  rejectedIds: string[];
  /** Stage F's hard findings about the scene that named no proposal (kept in the canon record). */
  scene: string[];
}

function judge(world: World, packet: ScenePacket, pending: Proposal[], s: PlayState, lexicon: LexiconEntry[]): Judged {
  let w = world;
  const out: Judged = { world, applied: [], claims: [], rejected: [], acceptedIds: [], unchangedIds: [], rejectedIds: [], scene: [] };
  const verdict = verifyProposals(world, packet, s, pending, lexicon);
  out.scene = verdict.scene.map((f) => `${f.code} ${f.message}`);
  for (const p of pending) {
    const why = verdict.rejected.get(p.id);
    if (why) {
      out.rejected.push({ id: p.id, reason: why });
      continue;
    }
    if (p.kind === 'claim') {
      // A claim stage F downgraded (a rumor, a belief, a secret someone here holds) stays the cast's: judged, nothing written.
      if (!verdict.canonClaims.has(p.id)) {
        out.unchangedIds.push(p.id);
        continue;
      }
      out.claims.push({ id: `f_play_${s.session}_${p.id}`.replace(/[^a-z0-9_]/g, '_'), kind: p.claim!.kind as CanonFact['kind'], text: p.claim!.text, episode: s.setup.episode ?? 'play', scene: s.setup.scene });
      out.acceptedIds.push(p.id);
      continue;
    }
    // Stage F passed it; the delta engine still checks the path, the op and the range as it applies it.
    const r = applyDeltas(w, [p.delta!], () => ({ episode: s.setup.episode ?? 'play', scene: s.setup.scene, event: p.turns.join('+'), operator: null }));
    if (!r.ok) {
      out.rejected.push({ id: p.id, reason: r.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ') });
      continue;
    }
    const a = r.applied[0]!;
    // Already so (a weight at its limit): nothing is written, and it is not reported as canon.
    if (stableStringify(a.before) === stableStringify(a.after)) {
      out.unchangedIds.push(p.id);
      continue;
    }
    w = r.world;
    out.applied.push({ ...p.delta!, proposal: p.id, provenance: { session: s.session, scene: s.setup.scene, turns: p.turns }, before: a.before, after: a.after });
    out.acceptedIds.push(p.id);
  }
  if (out.claims.length) w = { ...w, canon: { ...w.canon, facts: [...w.canon.facts, ...out.claims] } };
  out.world = w;
  out.rejectedIds = out.rejected.map((r) => r.id);
  out.acceptedIds.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  return out;
}
