import fs from 'node:fs';
import path from 'node:path';
import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { RUNS_DIR } from '../paths.js';
import { DEFAULT_PACKET_OPTIONS, estimateTokens } from '../stages/d-packets/index.js';

/**
 * The Actor's context is a stage D scene packet. `--scene SCxx` loads the packet stage D wrote for
 * a committed episode (seasons/…/packets/) or a planned one (.aureus/runs/…/packets/); `--at/--with`
 * improvises one from the world with the same shape and the same 1-hop GraphRAG-lite walk from the
 * cast (edges among and around the cast, the secrets the cast holds or is the subject of, the
 * threads the cast has a stake in), so stage F's rules read it exactly as they read a planned one.
 */
export function findScenePacket(root: string, scene: string): { packet: ScenePacket; file: string } {
  const m = /^(?:(s\d{2}e\d{2})\/)?(SC\d{2})$/i.exec(scene.trim());
  if (!m) throw new AureusError(`--scene ${scene}: expected SCxx or sNNeNN/SCxx`, { exitCode: ExitCode.USAGE, hint: 'e.g. --scene SC03 or --scene s01e02/SC03' });
  const want = m[2]!.toUpperCase();
  const ep = m[1]?.toLowerCase();
  const candidates: string[] = [];
  const seasons = path.join(root, 'seasons');
  for (const s of safeList(seasons)) for (const e of safeList(path.join(seasons, s))) candidates.push(path.join('seasons', s, e));
  for (const r of safeList(path.join(root, RUNS_DIR))) candidates.push(path.join(RUNS_DIR, r));
  for (const dir of candidates.sort().reverse()) {
    const file = path.join(dir, 'packets', `${want}.json`);
    if (!fs.existsSync(path.join(root, file))) continue;
    const packet = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as ScenePacket;
    if (ep && packet.episode_id !== ep) continue;
    return { packet, file };
  }
  throw new AureusError(`scene ${scene} not found in any planned or committed episode`, {
    exitCode: ExitCode.USAGE,
    hint: 'plan one with `aureus episode plan`, or play an improvised scene with --at <location> --with <ids>',
  });
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Check a character id: in the world and alive. */
export function requireLiving(world: World, id: string, flag: string): void {
  const c = world.characters.characters.find((x) => x.id === id);
  if (!c) {
    const ids = world.characters.characters.filter((x) => x.status === 'alive').map((x) => x.id);
    throw new AureusError(`${flag} ${id}: no such character in world/characters.json`, { exitCode: ExitCode.USAGE, hint: `living characters: ${ids.join(', ')}` });
  }
  if (c.status !== 'alive') throw new AureusError(`${flag} ${id}: ${c.name} is ${c.status} and cannot be played`, { exitCode: ExitCode.USAGE });
}

export function improvisedPacket(world: World, location: string, ids: string[]): ScenePacket {
  const loc = world.world.locations.find((l) => l.id === location);
  if (!loc) throw new AureusError(`--at ${location}: no such location`, { exitCode: ExitCode.USAGE, hint: `locations: ${world.world.locations.map((l) => l.id).join(', ')}` });
  const set = new Set(ids);
  const chars = world.characters.characters.filter((c) => set.has(c.id));
  const edges = world.relationships.relationships
    .filter((r) => set.has(r.from) || set.has(r.to))
    .map((r) => ({ from: r.from, to: r.to, weights: { ...r.weights }, flags: [...r.flags], relevance: set.has(r.from) && set.has(r.to) ? 1 : 0.5 }))
    .sort((a, b) => b.relevance - a.relevance || `${a.from}>${a.to}`.localeCompare(`${b.from}>${b.to}`))
    .slice(0, 24);
  const hop = new Set([...ids, ...edges.flatMap((e) => [e.from, e.to])]);
  const p: ScenePacket = {
    format: 1,
    episode_id: 'play',
    scene_id: 'PLAY',
    number: 0,
    act: 0,
    marquee: false,
    setting: { location: loc.id, location_name: loc.name, kind: loc.setting, exterior: loc.exterior, time_of_day: 'day', day: 0, date_text: '', atmosphere: loc.description },
    cast: chars.map((c) => ({
      id: c.id, name: c.name, cue: c.cue, status: c.status, mood: 'guarded', objective: c.bdi.intentions[0] ?? 'hold position',
      register: c.voice.register, voice_tags: c.voice.tags, sample_lines: c.voice.sample_lines ?? [], previous_location: c.location, days_since_previous: 1,
    })),
    dead: world.characters.characters.filter((c) => c.status === 'dead').map((c) => ({ id: c.id, name: c.name, cue: c.cue })),
    retrieved_subgraph: {
      k: 1,
      characters: world.characters.characters.filter((c) => hop.has(c.id)).map((c) => ({ id: c.id, name: c.name, faction: c.faction, status: c.status, location: c.location, stats: { ...c.stats }, intentions: [...c.bdi.intentions] })),
      edges,
      secrets: world.secrets.secrets.filter((s) => set.has(s.subject) || s.holders.some((h) => set.has(h))).map((s) => ({ id: s.id, text: s.text, subject: s.subject, holders: [...s.holders], status: s.status, legal_value: s.legal_value, public_damage: s.public_damage })),
      threads: world.threads.threads.filter((t) => t.stakeholders.some((h) => set.has(h))).map((t) => ({ id: t.id, question: t.question, progress: t.progress, status: t.status })),
      accounts: [],
    },
    pruned: [],
    director_instructions: { purpose: 'improvised scene played by the user', sequence: [] },
    constraints: { required_deltas: [], forbidden_facts: [], allowed_inventions: DEFAULT_PACKET_OPTIONS.allowedInventions, hook_requirement: '' },
    state_hash_before: '',
    token_estimate: 0,
    token_budget: DEFAULT_PACKET_OPTIONS.tokenBudget,
  };
  p.token_estimate = estimateTokens(p);
  return p;
}

/** A character who enters mid-scene joins the packet's cast and subgraph (an improvised packet is re-walked). */
export function addToPacket(packet: ScenePacket, world: World, id: string): ScenePacket {
  if (packet.episode_id === 'play') {
    const ids = [...new Set([...packet.cast.map((c) => c.id), id])];
    return { ...improvisedPacket(world, packet.setting.location, ids), cast: improvisedPacket(world, packet.setting.location, ids).cast };
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
