import { describe, expect, it } from 'vitest';
import { endsSpeaking, speechMarks, unquotedDialogue } from '../../../src/stages/f-verifier/prose/unquoted.js';
import { sentencesOf } from '../../../src/stages/f-verifier/prose/parse.js';
import { hookRule } from '../../../src/stages/f-verifier/rules/voice.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { contextOf, describeParaphrases, usePackets } from './prose-scenes.js';

// Held-out corpus 103's first run (session 30): dialogue set with no quotation marks was read as narration, so a
// title in it was a deed ("When the consul comes to open the granaries, …" put Cicero on stage). Sentences written
// for these tests, against real packets of the starter world with Catiline dead (test/fixtures/writer-corpus).
usePackets();

describeParaphrases('dialogue with no quotation marks', 'prose-unquoted.json');

const NAMES = new Set(['crassus', 'clodius', 'cicero', 'murena', 'varo', 'fulvia', 'terentia', 'cato']);

/** Each paragraph's sentences as speechMarks marks them, in order, through one reader. */
function marked(...paragraphs: string[]): string[][] {
  const marks = speechMarks((w) => NAMES.has(w.toLowerCase()));
  return paragraphs.map((p) => [...marks.paragraph(sentencesOf(p))]);
}

describe('speechMarks: the words said in dialogue with no quotation marks', () => {
  /** Each one-paragraph text and the sentences speechMarks gives it. */
  const expectMarks = (cases: Array<[string, string[]]>) => {
    for (const [text, sentences] of cases) expect(marked(text), text).toEqual([sentences]);
  };

  it('quotes the words before a tag, and reads what follows the tag by how it opens', () => {
    expectMarks([
      ['Not yet, Crassus said.', ['“Not yet,” Crassus said.']],
      // The splitter ends a sentence at the question: the tag's sentence gets an empty quotation, so its name is the speaker.
      ['Why? said Clodius. Sit down.', ['“Why?”', '“” said Clodius.', '“Sit down.”']],
      ['Sit, he said, pushing the cup across.', ['“Sit,” he said, pushing the cup across.']],
      ['Pay me, Crassus said, and closed the book.', ['“Pay me,” Crassus said, and closed the book.']],
      // Speech again after the tag: a capital, a clause that is no telling, or words in the first or second person.
      ['Friends, Clodius began, I have no bread for you.', ['“Friends,” Clodius began, “I have no bread for you.”']],
      ['Tomorrow, Clodius went on, the consul walks to the Forum.', ['“Tomorrow,” Clodius went on, “the consul walks to the Forum.”']],
      ['The house, Crassus said, owes me money.', ['“The house,” Crassus said, “owes me money.”']],
    ]);
  });

  it('quotes the words after a tag with a comma or a colon and a capital, and a colon before first or second person', () => {
    expectMarks([
      ['Then Clodius said, Not today.', ['Then Clodius said, “Not today.”']],
      ['He said it again, slowly: I will pay by the Kalends.', ['He said it again, slowly: “I will pay by the Kalends.”']],
      ['Varo thought of the old man at the door: You will be back, you always are.', ['Varo thought of the old man at the door: “You will be back, you always are.”']],
      // Not a list after a colon, nor names; not a verb of saying with its object.
      ['Three men waited: Crassus, Clodius and a clerk.', ['Three men waited: Crassus, Clodius and a clerk.']],
      ['When the lamps were lit, Cicero said a prayer over the wine.', ['When the lamps were lit, Cicero said a prayer over the wine.']],
      ['He said he would pay by the Kalends.', ['He said he would pay by the Kalends.']],
    ]);
  });

  it('runs speech on in its paragraph until a sentence opens on a third person, and opens a turn with no tag on words that speak', () => {
    expect(marked('No, Crassus said. The figure is at the bottom. He turned the book round. Your name is at the top.')).toEqual([
      ['“No,” Crassus said.', '“The figure is at the bottom.”', 'He turned the book round.', '“Your name is at the top.”'],
    ]);
    // A tag in the past, then the present after "She": speech about her, not narration.
    expect(marked('It is Fulvia, Murena said. She hears everything.')).toEqual([['“It is Fulvia,” Murena said.', '“She hears everything.”']]);
    expect(marked('Pay me, Crassus said.', 'I cannot. Not before the Kalends.', 'Clodius stood up. The lamp smoked.')).toEqual([
      ['“Pay me,” Crassus said.'],
      ['“I cannot.”', '“Not before the Kalends.”'],
      ['Clodius stood up.', 'The lamp smoked.'],
    ]);
    // Before the scene's first tag, a paragraph in the first person may be a narrator's; after it, it is a turn.
    expect(marked('Clodius stood up.', 'I cannot wait all night.')).toEqual([['Clodius stood up.'], ['I cannot wait all night.']]);
    expect(marked('Sit, Crassus said.', 'Clodius stood up.', 'I cannot wait all night.')).toEqual([['“Sit,” Crassus said.'], ['Clodius stood up.'], ['“I cannot wait all night.”']]);
  });

  it('reads a fronted clause of time before a said-verb that is also a deed as narration, and speech that only opens so as speech', () => {
    expectMarks([
      // Two deeds: the clause is no words said, and "laughs" no tag (the audit's sentence, and others).
      ['After Terentia sets down the cup, Caesar laughs.', ['After Terentia sets down the cup, Caesar laughs.']],
      ['When Murena had finished reading, Crassus laughed aloud.', ['When Murena had finished reading, Crassus laughed aloud.']],
      ['Then, as the lictors carry out the last sack, the crowd shouts.', ['Then, as the lictors carry out the last sack, the crowd shouts.']],
      ['Once Cato was out of earshot, Clodius laughed.', ['Once Cato was out of earshot, Clodius laughed.']],
      // Still speech: a phrase with no verb, words in the first or second person, speech again after the tag.
      ['After the vote, Crassus said.', ['“After the vote,” Crassus said.']],
      ['When you are ready, Crassus said.', ['“When you are ready,” Crassus said.']],
      ['Before I pay, Crassus said.', ['“Before I pay,” Crassus said.']],
      ['When the consul comes to open the granaries, Clodius said, I will be standing at the door.', ['“When the consul comes to open the granaries,” Clodius said, “I will be standing at the door.”']],
      ['Not yet, Crassus laughed.', ['“Not yet,” Crassus laughed.']],
    ]);
  });

  it('reads a dialogue dash as speech', () => {
    expect(marked('— Twelve, said Crassus. — Good.')).toEqual([['— “Twelve,” said Crassus.', '— “Good.”']]);
  });
});

describe('unquotedDialogue: which scenes set dialogue with no quotation marks', () => {
  const lines = (...t: string[]) => t.map((text) => ({ text }));
  it('is a scene with no double quote, guillemet or single quote opening a word', () => {
    expect(unquotedDialogue(lines('Pay me, Crassus said.', "Crassus' money is cheap, said Clodius."))).toBe(true);
    expect(unquotedDialogue(lines('Pay me, Crassus said.', '"Never," said Clodius.'))).toBe(false);
    expect(unquotedDialogue(lines("'Pay me,' Crassus said."))).toBe(false);
    expect(unquotedDialogue(lines('«Pay me,» Crassus said.'))).toBe(false);
  });
});

describe('a scene with no quotation marks that ends on words said ends on a button (AUR5060)', () => {
  const scene = (...paragraphs: string[]) =>
    hookRule(parseWriterOutput(`---SCENE_TEXT---\n${paragraphs.join('\n\n')}\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`), contextOf('SC05')).map((f) => f.code);
  const opening = ['Crassus counts the cups on the tray, twice, and Clodius watches him do it from the couch.', 'Pay me, Crassus says.'];
  it('is a button however long the last line of speech, after its tag or run on past it', () => {
    for (const last of [
      'Not tonight, Clodius says, and he gets up off the couch. You will have your money when the Subura has had its bread, and not one day before, and you may tell the consul so.',
      'Clodius turned at the door and said to him, without any hurry: You will have your money when the Subura has had its bread, and not one day before, and you may tell the consul so.',
    ]) expect(scene(...opening, last), last).toEqual([]);
  });
  it('is no button when the long last line is narration, or speech only reported', () => {
    for (const last of [
      'Clodius gets up off the couch and goes out past the slaves and the silver without another word, and behind him the house settles back into its quiet, and the lamps burn down one by one.',
      'At the door Clodius said, without turning, that Crassus would have his money when the Subura had had its bread and not one day before, and that he could tell the consul so.',
    ]) expect(scene(...opening, last), last).toEqual(['AUR5060']);
  });
  it('reads the last paragraph as the reader does (endsSpeaking), only in a scene with no quotation marks', () => {
    const isPerson = (w: string) => NAMES.has(w.toLowerCase());
    const lines = (...t: string[]) => t.map((text) => ({ text }));
    expect(endsSpeaking(lines('Pay me, Crassus said.', 'I cannot. Not before the Kalends, and not then either.'), isPerson)).toBe(true);
    expect(endsSpeaking(lines('Pay me, Crassus said.', 'Clodius went out.'), isPerson)).toBe(false);
    expect(endsSpeaking(lines('"Pay me," Crassus said.', 'I cannot. Not before the Kalends.'), isPerson)).toBe(false);
  });
});
