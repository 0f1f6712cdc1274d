import { episodeRef, type EpisodeRef } from '../domain/context.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';

/**
 * Episode ids typed by a user are validated here and nowhere else: only digits reach paths and git
 * refs, so "../x" or "s01e03/../../etc" is a usage error, never a path. Strictly `sNNeNN`, as README
 * says and as every command reads them: "s1e1" and "S1E3" were taken by `note` and `recap` while
 * `cost` said it had no run log "at s1e1"; now each refuses them alike (AUR6005).
 */
const EPISODE_ID = /^s(\d{2})e(\d{2})$/;
/** What a user means as an episode id, written otherwise (s1e1, S01E01): refused as one, not read as a path or ref. */
const EPISODE_ID_LIKE = /^\s*s\d+e\d+\s*$/i;

export function parseEpisodeId(value: string): EpisodeRef | null {
  const m = EPISODE_ID.exec(value);
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
 * For an argument that is an episode id or something else (a run folder for `cost`, a git ref for
 * `diff`): the id, null when the value is no episode id at all, AUR6005 when it is one written
 * otherwise than `sNNeNN` (it would be looked up as a path or a ref and not found, said obliquely).
 */
export function episodeIdIfAny(value: string): EpisodeRef | null {
  return parseEpisodeId(value) ?? (EPISODE_ID_LIKE.test(value) ? requireEpisodeId(value) : null);
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
