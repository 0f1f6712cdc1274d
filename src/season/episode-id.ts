import { episodeRef, type EpisodeRef } from '../domain/context.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';

/**
 * Episode ids typed by a user ("s01e03", "S1E3") are validated here and nowhere else: only digits
 * reach paths and git refs, so "../x" or "s01e03/../../etc" is a usage error, never a path.
 */
const EPISODE_ID = /^s(\d{1,2})e(\d{1,2})$/i;

export function parseEpisodeId(value: string): EpisodeRef | null {
  const m = EPISODE_ID.exec(value.trim());
  if (!m) return null;
  const season = Number(m[1]);
  const episode = Number(m[2]);
  if (season < 1 || episode < 1) return null;
  return episodeRef(season, episode);
}

export function requireEpisodeId(value: string): EpisodeRef {
  const ref = parseEpisodeId(value);
  if (!ref) {
    throw new AureusError(`not an episode id: ${JSON.stringify(value)}`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR6005', { value: value.slice(0, 80) })],
    });
  }
  return ref;
}

/**
 * A positive integer option (--season, --episode, --count, --concurrency; play's --turns,
 * --max-input, --brief-budget with their own `min`): digits only, so `0x10`, `1e3`, ` 3` and
 * `1.5` are refused, and nothing over `max` (99999999999999999999 is not a count).
 */
export function requirePositiveInt(name: string, value: string | undefined, max = 99, min = 1): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new AureusError(`--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR7010', { option: `--${name}`, value: value.slice(0, 80) || '""', expected: `a whole number from ${min} to ${max}`, example: `e.g. --${name} ${min}` })],
    });
  }
  return Number(value);
}

/** The episode's tag: same as its id ("s01e03"). */
export const episodeTag = (ref: EpisodeRef): string => ref.id;
/** The commit subject prefix: "S01E03". */
export const episodeLabel = (ref: EpisodeRef): string => ref.id.toUpperCase();
