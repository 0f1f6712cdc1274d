export { parseLexicon, findAnachronisms, LEXICON_FILE, type LexiconEntry, type LexiconParse, type AnachronismHit } from './lexicon.js';
export { loadStyle, guideSections, STYLE_GUIDE_FILE, MAX_STYLE_BYTES, type StyleBundle } from './guide.js';
