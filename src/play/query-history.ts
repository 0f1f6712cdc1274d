import { parsePath, type PathTarget } from '../core/deltas/index.js';
import { compareText } from '../core/text-order.js';
import { WORLD_FILES } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { parseJsonBytesSafe } from '../store/read.js';
import { diag } from '../diagnostics/index.js';
import type { GitPort } from '../git/port.js';
import { requireWorldRepo } from '../pipeline/world-repo.js';
import { didYouMean, listSome } from '../store/suggest.js';

/**
 * `aureus query history <path>`: every commit that changed the value a delta path (docs/paths.md)
 * names. The path is read exactly as the delta engine writes it, one reader per path kind, so the
 * history shows the value a delta changes (a metric's number, an account's denarii), never a
 * neighbouring object or nothing at all.
 */

type Obj = Record<string, unknown>;

/** An id the path names, and where the world lists the ids of its kind. */
interface PathRef {
  kind: string;
  id: string;
  file: string;
  ids: (json: unknown) => string[];
}

interface Located {
  file: string;
  read: (json: unknown) => unknown;
  refs: PathRef[];
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const dig = (o: unknown, keys: readonly string[]) => keys.reduce<unknown>((v, k) => (isObj(v) && Object.hasOwn(v, k) ? v[k] : undefined), o);
const items = (json: unknown, key: string): Obj[] => {
  const v = dig(json, [key]);
  return Array.isArray(v) ? v.filter(isObj) : [];
};
const byId = (json: unknown, key: string, id: string) => items(json, key).find((x) => x.id === id);
const idsOf = (key: string) => (json: unknown) => items(json, key).map((x) => String(x.id));

/** A field of a listed entity (a character, secret, thread or ledger account). */
function entity(file: string, key: string, kind: string, id: string, field: readonly string[]): Located {
  return { file, read: (j) => dig(byId(j, key, id), field), refs: [{ kind, id, file, ids: idsOf(key) }] };
}

const character = (id: string, field: readonly string[]) => entity(WORLD_FILES.characters, 'characters', 'character', id, field);
const secret = (id: string, field: string) => entity(WORLD_FILES.secrets, 'secrets', 'secret', id, [field]);
const thread = (id: string, field: string) => entity(WORLD_FILES.threads, 'threads', 'thread', id, [field]);

/** An edge's field; its ends are characters, listed in characters.json (the edge itself may be new). */
function edge(from: string, to: string, field: readonly string[]): Located {
  const end = (id: string) => character(id, []).refs[0]!;
  return {
    file: WORLD_FILES.relationships,
    read: (j) => dig(items(j, 'relationships').find((r) => r.from === from && r.to === to), field),
    refs: [end(from), end(to)],
  };
}

/** The file a delta path lives in, how to read its value from that file's JSON, and the ids it names. */
function locate(t: PathTarget): Located {
  const world = WORLD_FILES.world;
  switch (t.kind) {
    // A metric's path addresses its number; label, min, max and rest are its declaration.
    case 'global': return { file: world, read: (j) => dig(j, ['global', t.metric, 'value']), refs: [{ kind: 'metric', id: t.metric, file: world, ids: (j) => Object.keys(dig(j, ['global']) ?? {}) }] };
    case 'date': return { file: world, read: (j) => dig(j, ['date', t.field]), refs: [] };
    case 'stat': return character(t.character, ['stats', t.stat]);
    case 'char_status': return character(t.character, ['status']);
    case 'char_location': return character(t.character, ['location']);
    case 'bdi': return character(t.character, ['bdi', t.list]);
    case 'weight': return edge(t.from, t.to, ['weights', t.weight]);
    case 'edge_flags': return edge(t.from, t.to, ['flags']);
    case 'secret_status': return secret(t.secret, 'status');
    case 'secret_value': return secret(t.secret, t.field);
    case 'secret_holders': return secret(t.secret, 'holders');
    case 'secret_told_in': return secret(t.secret, 'told_in');
    case 'thread_progress': return thread(t.thread, 'progress');
    case 'thread_status': return thread(t.thread, 'status');
    case 'thread_last_progress': return thread(t.thread, 'last_progress_episode');
    // The ledger is a list of accounts: an account is found by its id, not as a key of the list.
    case 'account': return entity(WORLD_FILES.assets, 'cash_ledger', 'ledger account', t.account, ['denarii']);
    // The whole ledger (what a transfer changes): every account's balance, by id in id order.
    case 'ledger': return {
      file: WORLD_FILES.assets,
      read: (j) => Object.fromEntries(items(j, 'cash_ledger').map((a): [string, unknown] => [String(a.id), a.denarii]).sort(([a], [b]) => compareText(a, b))),
      refs: [],
    };
  }
}

/**
 * An empty history whose path names an id the world does not have is a typo, not canon: refused as
 * `query debts nobody` is. The ids are checked only when no commit ever gave the path a value, so an
 * id that was in an earlier commit and is gone now still shows its history.
 */
async function refuseUnknownIds(git: GitPort, path: string, refs: readonly PathRef[]): Promise<void> {
  for (const ref of refs) {
    const bytes = await git.showFileBytes('HEAD', ref.file);
    const at = bytes === null ? null : readVersion(bytes, ref.file);
    const known = at && 'value' in at ? ref.ids(at.value) : [];
    if (known.includes(ref.id)) continue;
    throw new AureusError(`no ${ref.kind} "${ref.id}" in the world`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR7110', { path, kind: ref.kind, id: ref.id, file: ref.file, known: listSome(known), suggestion: didYouMean(ref.id, known) })],
    });
  }
}

export interface HistoryEntry {
  commit: string;
  date: string;
  subject: string;
  value: unknown;
  /** The file at this commit is not valid JSON (a hand commit): where and what, its value unknown (null). */
  unreadable?: string;
  episode: string | null;
  session: string | null;
  scene: string | null;
  turns: string | null;
}

/** The episode an episode commit is (its subject is `S01E03: <title>`); a revert or a note names none. */
function episodeOfSubject(subject: string): string | null {
  const m = /^S(\d{2})E(\d{2}): /.exec(subject);
  return m ? `s${m[1]}e${m[2]}` : null;
}

/** Every commit that changed the value at `p`, oldest first, with its episode or play session/turns from the trailers. */
export async function valueHistory(root: string, p: string): Promise<HistoryEntry[]> {
  const parsed = parsePath(p);
  if (!parsed.ok) throw new AureusError(`"${p}" is not a world path`, { exitCode: ExitCode.USAGE, diagnostics: [parsed.diagnostic] });
  const { file, read, refs } = locate(parsed.target);
  // Outside a world (or a world outside git) there is no history to give: not "(none)", exit 0.
  const git = await requireWorldRepo(root);
  const log = (await git.log({ paths: [file] })).reverse();
  const out: HistoryEntry[] = [];
  let prev: string | undefined;
  for (const e of log) {
    const bytes = await git.showFileBytes(e.sha, file);
    const at = bytes === null ? null : readVersion(bytes, file);
    const value = at && 'value' in at ? read(at.value) : undefined;
    const key = at && 'unreadable' in at ? `unreadable ${e.sha}` : JSON.stringify(value);
    if (key === prev) continue;
    prev = key;
    const trailer = (k: string) => new RegExp(`^${k}:\\s*(.+)$`, 'mi').exec(e.message)?.[1]?.trim() ?? null;
    out.push({ commit: e.sha, date: e.date, subject: e.subject, value: value ?? null, ...(at && 'unreadable' in at ? { unreadable: at.unreadable } : {}), episode: episodeOfSubject(e.subject), session: trailer('Aureus-Session'), scene: trailer('Aureus-Scene'), turns: trailer('Aureus-Turns') });
  }
  if (out.length === 0) await refuseUnknownIds(git, p, refs);
  return out;
}

/**
 * One version of a world file from the history: a commit made by hand may hold text that is not JSON. Its value is
 * unknown, said with the place and what is wrong, and the history goes on; JSON.parse's error ended the whole query
 * as an internal error (exit 1) before. Read as the store reads a world file (store/read.ts): a version with a UTF-8
 * BOM, which `aureus validate` reads fine, was "unreadable" to JSON.parse.
 */
function readVersion(bytes: Buffer, file: string): { value: unknown } | { unreadable: string } {
  const r = parseJsonBytesSafe(bytes, file);
  if (r.ok) return { value: r.value };
  const d = r.diagnostics[0];
  return { unreadable: d ? `${file}${d.line ? `:${d.line}:${d.column}` : ''}: ${d.message}` : `${file} is not valid JSON` };
}
