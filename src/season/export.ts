import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { episodeRelDir } from '../paths.js';
import type { EpisodePlan } from '../domain/plan.js';
import type { VerifierReport } from '../domain/scene.js';
import type { EpisodeMetrics } from '../stages/h-commit/metrics-model.js';
import { resolveEpisodeOrRef } from './episodes.js';
import { parseFileAt, readEpisodeBytes, readWorldAt } from './world-at.js';
import { committedNonEmptyText, committedText, restoreHint } from './committed-text.js';
import { parseScriptMarkdown } from './script-model.js';
import { scriptToFountain } from './fountain.js';
import { renderHtmlReport } from './html.js';
import { requireHtmlShape } from './export-shape.js';
import { requireEpisodeId } from './episode-id.js';
import { createGit } from '../git/adapter.js';

export type ExportFormat = 'fountain' | 'md' | 'html';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['fountain', 'md', 'html'];

export function requireFormat(value: string): ExportFormat {
  if ((EXPORT_FORMATS as readonly string[]).includes(value)) return value as ExportFormat;
  throw new AureusError(`unknown export format ${JSON.stringify(value)}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6017', { format: value.slice(0, 40) })] });
}

/**
 * The title page's author: Aureus and the provider that rendered the prose, from the episode
 * commit's Aureus-Provider trailer ("Aureus (offline)"); plain "Aureus" when it has none.
 */
async function authorOf(root: string, commit: string): Promise<string> {
  const msg = await createGit(root).message(commit);
  const provider = /^Aureus-Provider:[ \t]*(\S[^\n]*?)\s*$/m.exec(msg)?.[1];
  return provider ? `Aureus (${provider})` : 'Aureus';
}

/** How to undo a hand edit of a committed file: its history, and which formats read it. */
function exportHint(file: string, rel: string): string {
  return restoreHint(file, rel) + (file === 'episode_script.md' ? '' : '; --format md and fountain do not read it');
}

/** Export a committed episode (read from its tag, so it works from any branch state). */
export async function exportEpisode(root: string, episode: string, format: ExportFormat): Promise<{ content: string; extension: string; episode: string }> {
  const ref = requireEpisodeId(episode);
  const at = await resolveEpisodeOrRef(root, ref.id, false);
  const dir = episodeRelDir(ref);
  const read = async (file: string, decode = committedText) => {
    const rel = path.posix.join(dir, file);
    const bytes = await readEpisodeBytes(root, at.commit, rel);
    return bytes === null ? null : decode(bytes, { file, rel, episode: ref.id, use: 'exported', hint: exportHint(file, rel) });
  };
  // An emptied script would export as an empty file (md) or a title page with no scenes, exit 0.
  const md = await read('episode_script.md', committedNonEmptyText);
  if (md === null) throw new AureusError(`episode ${ref.id} has no script`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR6019', { dir, file: 'episode_script.md' })] });
  if (format === 'md') return { content: md, extension: 'md', episode: ref.id };
  const doc = parseScriptMarkdown(md);
  if (format === 'fountain') return { content: scriptToFountain(doc, { credit: 'Written by', author: await authorOf(root, at.commit) }), extension: 'fountain', episode: ref.id };

  const json = async <T>(file: string): Promise<T | null> => {
    const t = await read(file);
    if (t === null) return null;
    // A committed file edited by hand: exit 3 at its line:col, not an internal error.
    const rel = path.posix.join(dir, file);
    const hint = exportHint(file, rel);
    const value = parseFileAt(t, rel, at.commit, hint);
    requireHtmlShape(file, rel, t, value, hint);
    return value as T;
  };
  const metrics = await json<EpisodeMetrics>('episode_metrics.json');
  const report = await json<VerifierReport>('verifier_report.json');
  const plan = await json<EpisodePlan>('episode_plan.json');
  const after = await readWorldAt(root, at.commit);
  const parent = await createGit(root).resolve(`${at.commit}^`);
  const before = parent ? await readWorldAt(root, parent) : after;
  const threads = (plan?.threads_advanced ?? []).map((id) => {
    const t = after.threads.threads.find((x) => x.id === id);
    const b = before.threads.threads.find((x) => x.id === id);
    return { question: t?.question ?? id, from: b?.progress ?? 0, to: t?.progress ?? 0, status: t?.status ?? '?' };
  });
  const recap = await read('recap.md');
  return { content: renderHtmlReport({ doc, metrics, report, threads, recap }), extension: 'html', episode: ref.id };
}
