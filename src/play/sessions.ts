import { loadWorldOrThrow, requireWorldFolder } from '../store/load.js';
import { plural } from '../core/readable.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { characterState, debts, whoKnows } from './query.js';
import { valueHistory } from './query-history.js';
import { replay } from './state.js';
import { fileSessionStore } from './store.js';
import type { Evaluation, NextSuggestion, Proposal } from './types.js';

/**
 * Session listing and export. The export is built field by field from the reduced state — never
 * from raw records — so the hidden brief (a `brief` record) cannot reach it.
 */
export interface SessionRow {
  session: string;
  /** null: the session's log cannot be read (`problem` says why). */
  principal: string | null;
  scene: string | null;
  turns: number | null;
  state: 'complete' | 'in progress' | 'unreadable';
  /** Why an unreadable session cannot be read: its first problem, with its line:column. */
  problem?: string;
}

/**
 * Every session, one row each. A session whose log cannot be read is a row marked `unreadable`
 * with its problem, not the end of the listing: one bad log must not hide the good ones.
 */
export function listSessions(root: string): SessionRow[] {
  // Outside a world there are no sessions to list: AUR1000 (exit 3), as every command that reads
  // the world says, not "no play sessions yet" with exit 0.
  requireWorldFolder(root);
  const store = fileSessionStore(root);
  return store.list().map((id): SessionRow => {
    let records;
    try {
      records = store.read(id);
    } catch (e) {
      if (!(e instanceof AureusError) || e.exitCode !== ExitCode.INVALID_WORLD) throw e;
      return { session: id, principal: null, scene: null, turns: null, state: 'unreadable', problem: firstProblem(e) };
    }
    const { state } = replay(records);
    return { session: id, principal: state.setup.principal, scene: state.setup.scene, turns: state.director.turn_count, state: state.complete ? 'complete' : 'in progress' };
  });
}

/** "line 44:1: invalid JSON: …" (and how many more): the error's first located diagnostic. */
function firstProblem(e: AureusError): string {
  const ds = e.diagnostics.length > 1 ? e.diagnostics.slice(1) : e.diagnostics;
  const d = ds[0];
  if (!d) return e.message;
  const where = [d.line !== undefined ? `line ${d.line}:${d.column ?? 1}` : '', d.pointer ?? ''].filter(Boolean).join(' ');
  const more = ds.length > 1 ? ` (and ${ds.length - 1} more)` : '';
  return `${where ? where + ': ' : ''}${d.message}${more}`;
}

export interface SessionExport {
  session: string;
  setup: { scene: string; episode: string | null; location: string; principal: string; cast: string[]; mode: string; turn_budget: number };
  transcript: { turn: string; speaker: string; text: string }[];
  proposals: Proposal[];
  /** Every note of the session: `canonization` is the one that committed it (its tag play/<session>/<n>), null while pending. */
  notes: { text: string; turn: string; status: 'pending' | 'canonized'; canonization: number | null }[];
  proposed_threads: { question: string; turn: string; status: 'pending' | 'canonized'; canonization: number | null }[];
  director: { turn_count: number; beat: string; tension_curve: number[] };
  complete: { trigger: string; evaluation: Evaluation; next: NextSuggestion } | null;
}

export function showSession(root: string, id: string): SessionExport {
  requireWorldFolder(root);
  const { state: s } = replay(fileSessionStore(root).read(id));
  const transcript = s.exchanges.flatMap((e) => [
    { turn: e.user_id, speaker: s.setup.principal, text: e.user },
    { turn: e.actor_id, speaker: e.answer.speaker, text: e.content },
  ]);
  const { scene, episode, location, principal, mode, turn_budget } = s.setup;
  return {
    session: s.session,
    setup: { scene, episode, location, principal, cast: s.cast, mode, turn_budget },
    transcript,
    proposals: s.proposals,
    notes: s.notes.map(({ text, turn, canonization }) => ({ text, turn, status: canonization === null ? 'pending' : 'canonized', canonization })),
    proposed_threads: s.threads.map(({ question, turn, canonization }) => ({ question, turn, status: canonization === null ? 'pending' : 'canonized', canonization })),
    director: { turn_count: s.director.turn_count, beat: s.director.current_beat, tension_curve: s.director.tension_curve },
    complete: s.complete,
  };
}

export function renderSession(x: SessionExport): string {
  const lines = [`session ${x.session}: ${x.setup.principal} at ${x.setup.location} (${x.setup.scene}), ${x.director.turn_count} ${plural(x.director.turn_count, 'turn')}, beat ${x.director.beat}`, ''];
  for (const t of x.transcript) lines.push(t.speaker === x.setup.principal ? `${t.turn} YOU: ${t.text}` : `${t.turn} ${t.text}`);
  lines.push('', 'proposals:');
  for (const p of x.proposals) lines.push(`  ${p.id} [${p.status}] ${p.reason} (turns ${p.turns.join(', ')})${p.rejection ? ` — ${p.rejection}` : ''}`);
  if (!x.proposals.length) lines.push('  (none)');
  const status = (n: { status: string; canonization: number | null }) => (n.canonization === null ? 'pending' : `canonized: play/${x.session}/${n.canonization}`);
  lines.push('', 'notes:', ...x.notes.map((n) => `  ${n.turn} [${status(n)}] ${n.text}`));
  if (!x.notes.length) lines.push('  (none)');
  lines.push('', 'proposed threads:', ...x.proposed_threads.map((t) => `  ${t.turn} [${status(t)}] ${t.question}`));
  if (!x.proposed_threads.length) lines.push('  (none)');
  if (x.complete) lines.push('', `evaluation: ${x.complete.evaluation.summary}`, `next: ${x.complete.next.command}`);
  return lines.join('\n') + '\n';
}

/** What each query's argument is, for the usage error that says it is missing. */
const QUERY_ARGUMENT: Record<string, string> = { history: 'a world path (docs/paths.md)', character: 'a character id', knows: 'a secret id' };

export async function runQuery(root: string, kind: string, arg: string | undefined): Promise<unknown> {
  const need = () => {
    if (!arg) throw new AureusError(`query ${kind} needs an argument`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7011', { command: `aureus query ${kind}`, needed: QUERY_ARGUMENT[kind] ?? 'an argument', example: 'see `aureus query --help`' })] });
    return arg;
  };
  if (kind === 'history') return valueHistory(root, need());
  const { world } = await loadWorldOrThrow(root);
  if (kind === 'character') return characterState(world, need());
  if (kind === 'knows') return whoKnows(world, need());
  if (kind === 'debts') return debts(world, arg);
  throw new AureusError(`unknown query "${kind}"`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7105', { kind })] });
}
