import { SAID_VERB } from './said.js';

/**
 * A line of speech that ends on "!" or "…" and its said-tag, put back into one sentence. compromise keeps
 * '"Save it?" Crassus shouted.' whole but cuts '"Save it!" Crassus shouted.' after the quotation, so the tag stood
 * alone as narration: a simple past in a scene told in the present, read as a memory, and an uncast speaker went
 * unseen (AUR5016; session 43, noticed on held-out corpus 127's "called"). The same line with a comma or a question
 * mark was read. Only a tag that opens its sentence with one to three capitalised words (a name) and a said-tag verb
 * is joined: "Crassus shouted.", "Marcus Crassus murmured from the door." A sentence that merely begins with a name
 * and another verb ("Crassus turns away.") stays its own, and so does one after a line already tagged before it
 * ('He says, “Enough!” Crassus laughs.': Crassus laughs, he does not say it).
 */
const ENDS_EXCLAIMED = /^\s*["“‘][^"“”]*[!?…]["”’]\s*$/u;
const OPENS_TAG = new RegExp(String.raw`^\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2}\s+(?:\p{Ll}+ly\s+)?${SAID_VERB}\b`, 'u');

export function tagJoined(sentences: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const last = out.at(-1);
    if (last !== undefined && ENDS_EXCLAIMED.test(last) && OPENS_TAG.test(s)) out[out.length - 1] = `${last} ${s}`;
    else out.push(s);
  }
  return out;
}
