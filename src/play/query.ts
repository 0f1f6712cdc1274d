import { parsePath } from '../core/deltas/index.js';
import { WORLD_FILES, type World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { requireWorldRepo } from '../pipeline/world-repo.js';

/**
 * `aureus query`: structured questions answered from the world files and their git history
 * (seed 004's query mode; canon only, never a model). Every answer is plain data, printed as text
 * or JSON by the command.
 */
/** The character with this id, or a usage error naming the ones there are. */
function requireCharacter(world: World, id: string, option: string) {
  const c = world.characters.characters.find((x) => x.id === id);
  if (!c) throw new AureusError(`no character "${id}" in the world`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7101', { kind: 'character', id, option, file: 'world/characters.json', known: world.characters.characters.map((x) => x.id).join(', ') })] });
  return c;
}

export function characterState(world: World, id: string) {
  const c = requireCharacter(world, id, 'query character');
  return {
    id: c.id, name: c.name, status: c.status, location: c.location, faction: c.faction, stats: c.stats, intentions: c.bdi.intentions,
    relations: world.relationships.relationships.filter((r) => r.from === id || r.to === id).map((r) => ({ from: r.from, to: r.to, weights: r.weights, flags: r.flags })),
    knows: world.secrets.secrets.filter((s) => s.holders.includes(id)).map((s) => s.id),
  };
}

export function whoKnows(world: World, secretId: string) {
  const s = world.secrets.secrets.find((x) => x.id === secretId);
  if (!s) throw new AureusError(`no secret "${secretId}"`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7101', { kind: 'secret', id: secretId, option: 'query knows', file: 'world/secrets.json', known: world.secrets.secrets.map((x) => x.id).join(', ') })] });
  return { id: s.id, status: s.status, subject: s.subject, holders: s.holders };
}

/** Debts: relationship edges with a debt weight or a creditor/debtor flag. */
export function debts(world: World, id?: string) {
  // A mistyped id would otherwise read as "no debts" (an empty answer that looks like canon).
  if (id) requireCharacter(world, id, 'query debts');
  return world.relationships.relationships
    .filter((r) => (r.weights.debt ?? 0) > 0 || r.flags.some((f) => /creditor|debtor|owes/.test(f)))
    .filter((r) => !id || r.from === id || r.to === id)
    .map((r) => ({ debtor: r.from, creditor: r.to, debt: r.weights.debt ?? 0, flags: r.flags }));
}

/** The file a delta path lives in, and how to read its value from that file's JSON. */
function locate(p: string): { file: string; read: (json: unknown) => unknown } {
  const t = parsePath(p);
  if (!t.ok) throw new AureusError(`"${p}" is not a world path`, { exitCode: ExitCode.USAGE, diagnostics: [t.diagnostic] });
  const seg = p.split('.');
  const find = (list: unknown, key: string, val: string) => (Array.isArray(list) ? list.find((x: Record<string, unknown>) => x[key] === val) : undefined) as Record<string, unknown> | undefined;
  const dig = (o: unknown, rest: string[]) => rest.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
  switch (seg[0]) {
    case 'characters': return { file: WORLD_FILES.characters, read: (j) => dig(find((j as { characters: unknown }).characters, 'id', seg[1]!), seg.slice(2)) };
    case 'relationships': return { file: WORLD_FILES.relationships, read: (j) => dig((j as { relationships: Record<string, unknown>[] }).relationships.find((r) => r.from === seg[1] && r.to === seg[2]), seg[3] === 'flags' ? ['flags'] : ['weights', seg[3]!]) };
    case 'secrets': return { file: WORLD_FILES.secrets, read: (j) => dig(find((j as { secrets: unknown }).secrets, 'id', seg[1]!), seg.slice(2)) };
    case 'threads': return { file: WORLD_FILES.threads, read: (j) => dig(find((j as { threads: unknown }).threads, 'id', seg[1]!), seg.slice(2)) };
    case 'world': return { file: WORLD_FILES.world, read: (j) => dig(j, seg.slice(1)) };
    default: return { file: WORLD_FILES.assets, read: (j) => dig(j, seg.slice(1)) };
  }
}

export interface HistoryEntry {
  commit: string;
  date: string;
  subject: string;
  value: unknown;
  episode: string | null;
  session: string | null;
  scene: string | null;
  turns: string | null;
}

/** Every commit that changed the value at `p`, oldest first, with its episode or play session/turns from the trailers. */
/** The episode an episode commit is (its subject is `S01E03: <title>`); a revert or a note names none. */
function episodeOfSubject(subject: string): string | null {
  const m = /^S(\d{2})E(\d{2}): /.exec(subject);
  return m ? `s${m[1]}e${m[2]}` : null;
}

export async function valueHistory(root: string, p: string): Promise<HistoryEntry[]> {
  const { file, read } = locate(p);
  // Outside a world (or a world outside git) there is no history to give: not "(none)", exit 0.
  const git = await requireWorldRepo(root);
  const log = (await git.log({ paths: [file] })).reverse();
  const out: HistoryEntry[] = [];
  let prev: string | undefined;
  for (const e of log) {
    const text = await git.showFile(e.sha, file);
    const value = text === null ? undefined : read(JSON.parse(text));
    const key = JSON.stringify(value);
    if (key === prev) continue;
    prev = key;
    const trailer = (k: string) => new RegExp(`^${k}:\\s*(.+)$`, 'mi').exec(e.message)?.[1]?.trim() ?? null;
    out.push({ commit: e.sha, date: e.date, subject: e.subject, value: value ?? null, episode: episodeOfSubject(e.subject), session: trailer('Aureus-Session'), scene: trailer('Aureus-Scene'), turns: trailer('Aureus-Turns') });
  }
  return out;
}
