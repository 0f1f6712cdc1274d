import fs from 'node:fs';
import path from 'node:path';
import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { RUNS_DIR } from '../paths.js';
import { buildPackets } from '../stages/d-packets/index.js';
import { buildEpisodeContext } from '../stages/a-snapshot/index.js';
import { episodeRef } from '../domain/context.js';
import { requireEpisodeId } from '../season/episode-id.js';
import type { EpisodePlan } from '../domain/plan.js';
import { readPacket } from '../stages/f-verifier/load.js';
import { loadWorldOrThrow } from '../store/load.js';
import type { SceneSetup } from './types.js';

/** Where a planned or committed scene's packet was found, and the other folders that hold the scene too. */
export interface FoundPacket {
  packet: ScenePacket;
  file: string;
  /** Why this one (the committed episode, or the most recent plan), said when `others` is not empty. */
  why: string;
  others: string[];
}

/**
 * The Actor's context is a stage D scene packet. `--scene SCxx` loads the packet stage D wrote for
 * a committed episode (seasons/…/packets/) or a planned one (.aureus/runs/…/packets/); `--at/--with`
 * improvises one through stage D itself (buildPackets over a one-scene plan on stage A's context):
 * the same GraphRAG-lite walk from the cast, so stage F's rules read it exactly as a planned one.
 *
 * Several folders may hold the scene (a plan per seed, the committed episode): the committed episode
 * comes first (canon; the latest episode first), then the plans by when stage D wrote the packet,
 * most recent first — never by the folders' names, which order seeds, not time. A session pins the
 * packet it starts with (its start record), so this is looked up once, at the start.
 */
export function findScenePacket(root: string, scene: string): FoundPacket {
  const m = /^(?:([^/]*)\/)?(SC\d{2})$/i.exec(scene.trim());
  // The episode part is read as every command reads an episode id (season/episode-id.ts): strictly
  // sNNeNN, so `S01E01/SC03` is AUR6005 here as `recap S01E01` is, not quietly taken as s01e01.
  if (m?.[1] !== undefined) requireEpisodeId(m[1]);
  if (!m) throw new AureusError(`--scene ${scene}: expected SCxx or sNNeNN/SCxx`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7010', { option: '--scene', value: scene.slice(0, 80) || '""', expected: 'SCxx or sNNeNN/SCxx', example: 'e.g. --scene SC03 or --scene s01e02/SC03' })] });
  const want = m[2]!.toUpperCase();
  const ep = m[1];
  const holders = packetHolders(root, want).filter((h) => !ep || h.episode === null || h.episode === ep);
  for (const [i, h] of holders.entries()) {
    // Read as `scene verify` reads one (strict JSON, the packet schema): a hand-edited or truncated
    // packet is exit 3 with its line:column, not an internal error in the middle of the scene.
    const packet = readPacket(path.join(root, h.file));
    if (ep && packet.episode_id !== ep) continue;
    const when = h.committed ? `the committed episode ${packet.episode_id}` : `the most recent plan (${new Date(h.mtime).toISOString()})`;
    return { packet, file: h.file, why: when, others: holders.filter((_, j) => j !== i).map((o) => o.file) };
  }
  throw new AureusError(`scene ${scene} not found in any planned or committed episode`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7104', { scene })] });
}

/** Every packet file of the scene, in findScenePacket's order of preference. */
function packetHolders(root: string, scene: string): { file: string; episode: string | null; committed: boolean; mtime: number }[] {
  const at = (dir: string) => {
    const file = path.posix.join(dir, 'packets', `${scene}.json`);
    try {
      const st = fs.statSync(path.join(root, file));
      return st.isFile() ? { file, mtime: st.mtimeMs } : null;
    } catch {
      return null; // not there (or a file such as season_goals.json where a folder was listed)
    }
  };
  const committed = [];
  for (const s of safeList(path.join(root, 'seasons'))) {
    for (const e of safeList(path.join(root, 'seasons', s))) {
      const h = at(path.posix.join('seasons', s, e));
      const sn = /^season_(\d+)$/.exec(s)?.[1];
      const en = /^episode_(\d+)$/.exec(e)?.[1];
      if (h) committed.push({ ...h, episode: sn && en ? episodeRef(Number(sn), Number(en)).id : null, committed: true });
    }
  }
  const plans = [];
  for (const r of safeList(path.join(root, RUNS_DIR))) {
    const h = at(path.posix.join(RUNS_DIR, r));
    if (h) plans.push({ ...h, episode: /^(s\d{2}e\d{2})-/.exec(r)?.[1] ?? null, committed: false });
  }
  // The latest committed episode first; the plans newest first (the name only breaks a tie, for a stable order).
  committed.sort((a, b) => (a.file < b.file ? 1 : -1));
  plans.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
  return [...committed, ...plans];
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Check a character id: in the world and alive. The one check of who may play, for a new session
 * (`--as`, `--with`) and a resumed one (its principal: `hint` then says the session cannot go on).
 */
export function requireLiving(world: World, id: string, flag: string, hint?: string): void {
  const c = world.characters.characters.find((x) => x.id === id);
  const living = () => world.characters.characters.filter((x) => x.status === 'alive').map((x) => x.id).join(', ');
  if (!c) throw new AureusError(`${flag} ${id}: no such character in world/characters.json`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7101', { kind: 'character', id, option: flag, file: 'world/characters.json', known: living() }, { hint: `living characters: ${living()}` })] });
  if (c.status !== 'alive') throw new AureusError(`${flag} ${id}: ${c.name} is ${c.status} and cannot be played`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7102', { option: flag, id, name: c.name, status: c.status, known: living() }, hint ? { hint } : {})] });
}

export function improvisedPacket(world: World, location: string, ids: string[]): ScenePacket {
  const loc = world.world.locations.find((l) => l.id === location);
  if (!loc) throw new AureusError(`--at ${location}: no such location`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7101', { kind: 'location', id: location, option: '--at', file: 'world/world.json', known: world.world.locations.map((l) => l.id).join(', ') })] });
  // Stage A's context of the world as it stands, and a one-scene plan with no applications: stage D
  // then builds the packet exactly as for a planned scene (its k-hop walk, filters, forbidden facts, budget).
  const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'play', previousCliffhanger: null });
  const plan: EpisodePlan = {
    format: 1, episode_id: 'play', season: context.season, episode: 0, seed: 'play', title: 'play', state_hash: context.state_hash, objectives: {},
    beats: [],
    scenes: [{ id: 'PLAY', number: 0, act: 0, location, time_of_day: 'day', day: 0, cast: [...new Set(ids)], beats: [], purpose: 'improvised scene played by the user', marquee: false }],
    threads_advanced: [], drama_responses: [], acceptance_checks: [], director: { source: 'symbolic', attempts: 0, fallback_reason: null },
  };
  const packet = buildPackets(plan, world, context)[0]!;
  return { ...packet, constraints: { ...packet.constraints, hook_requirement: '' } };
}

/** A character who enters mid-scene joins the packet's cast and subgraph (an improvised packet is re-walked). */
export function addToPacket(packet: ScenePacket, world: World, id: string): ScenePacket {
  if (packet.episode_id === 'play') {
    const ids = [...new Set([...packet.cast.map((c) => c.id), id])];
    return improvisedPacket(world, packet.setting.location, ids);
  }
  const c = world.characters.characters.find((x) => x.id === id)!;
  const impro = improvisedPacket(world, packet.setting.location, [id]);
  const sub = packet.retrieved_subgraph;
  return {
    ...packet,
    cast: [...packet.cast, ...impro.cast],
    retrieved_subgraph: { ...sub, characters: sub.characters.some((x) => x.id === c.id) ? sub.characters : [...sub.characters, ...impro.retrieved_subgraph.characters.filter((x) => x.id === c.id)] },
  };
}

/**
 * The scene as a session plays it from now on: the world as committed now, and the packet — the one
 * the session pinned when it started (`pinned`, a planned scene's, kept in its start record), or one
 * improvised from that world — with every character the session brought in since (`cast`, by
 * /character) added as /character adds one. `play --resume` opens with it and a running session
 * takes it again right after each canonization (canon is the truth from then on), so an
 * uninterrupted session and a resumed one work from the same packet by construction: a later plan or
 * episode run that rewrites the scene's packet file changes neither.
 */
export async function sceneWorld(root: string, setup: SceneSetup, pinned: ScenePacket | null, cast: string[]): Promise<{ world: World; packet: ScenePacket }> {
  const { world } = await loadWorldOrThrow(root);
  return { world, packet: scenePacket(world, setup, pinned, cast) };
}

/** sceneWorld's packet on a world already loaded (also after an /undo took back a character the model brought in). */
export function scenePacket(world: World, setup: SceneSetup, pinned: ScenePacket | null, cast: string[]): ScenePacket {
  let packet = pinned ?? improvisedPacket(world, setup.location, [setup.principal, ...setup.cast]);
  for (const id of cast) if (!packet.cast.some((c) => c.id === id)) packet = addToPacket(packet, world, id);
  return packet;
}

/** Whether a setup is a planned or committed scene's (its packet is a file), not an improvised one. */
export const isPlanned = (setup: SceneSetup): boolean => setup.episode !== null || setup.scene !== 'PLAY';
