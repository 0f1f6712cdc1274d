import { diag, type Diagnostic } from '../diagnostics/index.js';

/** Nothing larger is read: world files are hand-edited data, and this protects memory. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The file-size cap AUREUS_MAX_FILE_BYTES sets: its value when that is a positive integer (an
 * imported world of 10,000 characters has a relationships.json just over 10 MB; the bench and
 * users of such worlds raise the cap knowingly), else MAX_FILE_BYTES, with an AUR7007 warning when
 * it is set to anything else ("abc", "0", "-5", empty): a typo must not silently leave the cap where
 * it was, as AUREUS_WORKERS warns too. Its own module, free of the JSON reader, so the CLI can warn
 * at start-up without loading the store.
 */
export function fileCapSetting(env: NodeJS.ProcessEnv): { limit: number; warning?: Diagnostic } {
  const set = env.AUREUS_MAX_FILE_BYTES;
  if (set === undefined) return { limit: MAX_FILE_BYTES };
  const v = set.trim() === '' ? NaN : Number(set);
  if (Number.isSafeInteger(v) && v > 0) return { limit: v };
  const effect = `using the default cap of ${MAX_FILE_BYTES} bytes`;
  return { limit: MAX_FILE_BYTES, warning: diag('AUR7007', { name: 'AUREUS_MAX_FILE_BYTES', value: JSON.stringify(set), expected: 'a whole number of bytes above 0', effect }) };
}

/** The cap in force for this process (fileCapSetting of its environment). */
export function maxFileBytes(): number {
  return fileCapSetting(process.env).limit;
}
