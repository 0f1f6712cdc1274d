import { describe, expect, it } from 'vitest';
import type { Claim } from '../../../src/domain/scene.js';
import { claimRules } from '../../../src/stages/f-verifier/rules/claims.js';
import { codes, contextOf, findings, usePackets } from './prose-scenes.js';

// Second prose audit, finding 1: a living man said to be dead in the common ways of saying it ("Cato, who
// died a month ago", "a month in his grave", "carried out to his pyre", "cold in his tomb", "the tomb of
// Cato, raised after his death") was missed in prose (AUR5047) and accepted as canon in a claim (AUR5042).
// Besides the audit's sentences, variants of each construction with other people, tenses and dialogue, and
// near misses that must stay clean. Packets of the starter world with Catiline dead (prose-scenes.ts):
// SC05 Clodius, Crassus; SC15 Clodius; SC21 Fulvia, Terentia; SC24 Caesar, Cato, Servilia.
usePackets();

const canon = (scene: string, body: string) => findings(scene, body).filter((f) => f.code === 'AUR5047');

describe('a living man said to be dead in prose (AUR5047)', () => {
  it('a relative clause on the name: "X, who died …"', () => {
    for (const [scene, body] of [
      ['SC24', 'Servilia wears grey for her half-brother Cato, who died a month ago, and the lamps are hung with cypress.'],
      ['SC24', 'The lamps burn for Caesar, who was killed on the steps of the Curia.'],
      ['SC21', 'Fulvia, who had died in the spring, left Terentia her loom.'],
      ['SC05', '**CLODIUS:** Nobody speaks ill of Crassus, who lies buried on the Appian Way.'],
    ]) expect(codes(canon(scene, body)), body).toEqual(['AUR5047']);
  });
  it('the name laid in a grave, tomb or pyre: "a month in his grave", "cold in his tomb", "carried out to his pyre"', () => {
    for (const [scene, body] of [
      ['SC24', 'Servilia wears grey for her half-brother Cato, a month in his grave, and the lamps are hung with cypress.'],
      ['SC15', 'Clodius, three days in his tomb, is all the harbour talks of.'],
      ['SC21', 'Terentia burns incense for Fulvia, cold in her grave since the Nones.'],
      ['SC24', '"Your friend Cato is cold in his tomb," Servilia says, "and there is no one left to protect you."'],
      ['SC05', 'Clodius looks at the empty couch. Crassus has been in his grave a month now.'],
      ['SC24', 'Servilia has not worn colours since Caesar was carried out to his pyre on the Campus last spring.'],
      ['SC15', 'They laid Clodius in his tomb by the Via Appia at the end of the winter.'],
      ['SC05', '"Crassus is ashes," Clodius says, "and his money with him."'],
    ]) expect(codes(canon(scene, body)), body).toEqual(['AUR5047']);
  });
  it('a possessive pronoun whose only owner is the name: "after his death", "since her funeral"', () => {
    for (const [scene, body] of [
      ['SC15', 'The house of Clodius on the Palatine was sold at auction after his death.'],
      ["SC24", "Cato's slaves were freed after his death, every one of them."],
      ['SC24', 'Servilia has worn grey for Caesar since his death.'],
    ]) expect(codes(canon(scene, body)), body).toEqual(['AUR5047']);
  });
  it('someone else\'s grave, a likeness, a threat or wish, a near death, "grave" as an adjective, a dead man\'s death: clean', () => {
    for (const [scene, body] of [
      ['SC24', 'Cato stands before the tomb of the Porcii, where his grandfather lies.'],
      ['SC24', "Caesar pours wine at his father's tomb and says nothing."],
      ['SC15', "Clodius visits his grandfather's grave on the Appian Way every Parentalia."],
      ['SC24', '"You are a dead man, Caesar," Cato says, and means the courts.'],
      ['SC21', "Terentia's hands are cold as the grave."],
      ['SC24', '"I would sooner be in my grave than marry into that house," Servilia says.'],
      ['SC24', '"Caesar will be in his grave by the Kalends," Cato says.'],
      ['SC24', '"May he rot in his tomb," Servilia says of Caesar.'],
      ['SC15', 'Clodius, who nearly died in the river at Ostia, laughs about it now.'],
      ['SC05', 'Crassus, who will be in his grave before he is poor, counts the sacks again.'],
      ['SC24', 'Cato says in his grave voice that the Senate will vote at dawn.'],
      ['SC24', "Servilia's grave face tells Caesar nothing."],
      ['SC24', 'Catiline, who died at Pistoria, is not mourned in this house.'],
      ['SC24', 'Old Sarpedon died in the spring, and Cato spoke at his funeral.'],
      ['SC24', 'Old Sarpedon died in the spring. Cato has not smiled since his death.'],
      ['SC24', 'Cato walks behind the bier at the funeral of his uncle, bareheaded in the rain.'],
      ["SC24", "Cato's lands will go to his nephew after his death, and Servilia knows it."],
      ['SC05', 'Crassus means to leave the house to Clodius after his death.'],
      ['SC05', 'Crassus leaves the house to Clodius after his death, and the clerk writes it down.'],
      ['SC05', 'Clodius looks up at the tomb of Crassus, half-finished on the Appian Way, and laughs.'],
    ]) expect(canon(scene, body), body).toEqual([]);
  });
});

// A death told of "he" or "she" whose person is named only in the sentence before (prose/canon.ts pronounDeath), and
// the idioms of dying (death.ts DIED_IDIOM) after a name or a pronoun. Controls: two men named before, a woman before
// "he", an unnamed man or a body the pronoun could mean, "dead" in an idiom, a death feared, supposed, to come, denied
// or nearly, and a man already dead.
describe('a death told through a pronoun, or in an idiom of dying (AUR5047)', () => {
  it('"he" or "she" in the sentence after the only person of that gender it can mean', () => {
    for (const [scene, body] of [
      ['SC24', 'Cato left the Forum at dusk. By morning he was dead.'],
      ['SC24', 'They carried Cato home on a door. He did not live to see the lamps lit.'],
      ['SC05', 'Crassus went down to the baths alone after the auction.\n\nHe was dead before the water had cooled.'],
      ['SC24', '"Caesar dined with us on the Kalends," Servilia says quietly. "Three days later he was dead."'],
      ['SC21', 'Terentia sent a litter for Cicero at noon. By evening he had died, and the house was shut.'],
      ['SC15', 'Clodius lay a long while with his face to the wall. Before the lamps were lit he breathed his last.'],
      ['SC05', 'Crassus sinks back against the cushions. He is dead before the cup reaches the floor.'],
      ['SC21', 'Fulvia took the fever in the spring. She was dead by the Ides.'],
    ]) expect(codes(canon(scene, body)), body).toEqual(['AUR5047']);
  });
  it('an idiom of dying after the name, or in a relative clause on it', () => {
    for (const [scene, body] of [
      ['SC24', 'Cato breathed his last at Utica, the book still open on his chest.'],
      ['SC05', 'Crassus gave up the ghost in the small hours, and the house went quiet.'],
      ['SC24', '"Caesar is no more," Servilia says, and lets the tablet fall.'],
      ['SC15', 'Clodius passed from this life on the third day of the fever.'],
      ['SC21', 'Terentia keeps the loom of Fulvia, who has gone to the shades.'],
      ['SC24', 'Cato crossed the Styx a month ago, and still Servilia has his place laid.'],
      ['SC24', 'Servilia has not left the house since Caesar breathed his last in her arms.'],
    ]) expect(codes(canon(scene, body)), body).toEqual(['AUR5047']);
  });
  it('two men before "he", a woman before "he", an unnamed man or a body, an idiom, a death feared, to come, denied or nearly, a dead man: clean', () => {
    for (const [scene, body] of [
      ['SC24', 'Cato left the Forum with Caesar at dusk. By morning he was dead.'],
      ['SC24', 'Servilia left the Forum at dusk. By morning he was dead.'],
      ['SC24', 'Cato sat up through the night with the old steward. By morning he was dead.'],
      ['SC24', 'Cato knelt beside the body in the street. He was dead.'],
      ['SC24', 'Cato left the Forum at dusk. By morning he was dead tired, and slept till noon.'],
      ['SC24', 'Cato left the Forum at dusk. He would be dead by morning if the fever did not break.'],
      ['SC24', 'Cato left the Forum at dusk. He thought he would die before he reached the Palatine.'],
      ['SC24', 'Cato left the Forum at dusk. For a moment in the alley he thought he was dead.'],
      ['SC24', 'Cato left the Forum at dusk. He did not die that night, whatever the Subura says.'],
      ['SC24', 'Cato left the Forum at dusk. He was half dead with cold by the time he reached home.'],
      ['SC24', '"Caesar?" Servilia says. "He is dead to me."'],
      ['SC24', '"Caesar is dead to me," Servilia says.'],
      ['SC24', 'Catiline rode out of Rome in the night. Within the month he was dead at Pistoria.'],
      ['SC24', 'Cato did not breathe his last at Utica; the ship turned back at Corcyra.'],
      ['SC05', 'Crassus may yet breathe his last in this house, if the fever holds.'],
      ['SC24', 'Caesar will give up the ghost before he gives up the priesthood.'],
      ['SC24', 'Cato nearly breathed his last in the river that winter.'],
      ['SC24', '"Caesar is no more a friend of this house than the tax-farmers are," Servilia says.'],
      ['SC15', 'Clodius would have crossed the Styx that night, had the ferryman not been drunk.'],
      ['SC24', 'Cato crossed the river at dawn and was in the Forum by the second hour.'],
    ]) expect(canon(scene, body), body).toEqual([]);
  });
});

const claim = (c: Partial<Claim>): Claim => ({ id: 'c1', kind: 'place_detail', ...c }) as Claim;
const claimCodes = (scene: string, c: Partial<Claim>) => claimRules([claim(c)], contextOf(scene), '').findings.map((f) => f.code);

describe('a canon claim that a living man is dead (AUR5042)', () => {
  it('is rejected when the death is told by a tomb, a relative clause, a burial, "the late" or a pronoun of the claim\'s subject', () => {
    for (const [scene, c] of [
      ['SC24', { subject: 'cato', text: 'The tomb of Marcus Porcius Cato, raised last year after his death, stands by the harbour gate at Ostia.' }],
      ['SC24', { subject: 'caesar', text: 'His tomb stands beside the Via Latina, hung with fresh garlands.' }],
      ['SC24', { kind: 'object', subject: 'servilia', text: 'An urn of green glass holds the ashes of Servilia, who died in the winter.' }],
      ['SC24', { subject: 'cato', text: 'A cypress marks the place where Cato was laid in his grave.' }],
      ['SC15', { kind: 'object', text: "The late Clodius' signet ring, kept now by his freedman." }],
      ['SC21', { subject: 'fulvia', text: 'The garden was let go to weeds after her death.' }],
      ['SC05', { subject: 'crassus', text: 'The tomb of Crassus was raised on the Appian Way after his death.' }],
      ['SC24', { subject: 'cato', text: 'Cato breathed his last at Utica with a book on his chest.' }],
      ['SC24', { subject: 'caesar', text: 'He gave up the ghost in the house of Servilia, in the second hour of the night.' }],
      ['SC24', { subject: 'servilia', text: 'She did not live to see her daughter married.' }],
      ['SC05', { kind: 'object', subject: 'crassus', text: 'A ring of red gold, which he wore until he was dead.' }],
    ] as [string, Partial<Claim>][]) {
      const v = claimRules([claim(c)], contextOf(scene), '');
      expect(v.findings.map((f) => f.code), c.text).toEqual(['AUR5042']);
      expect(v.rejected.map((r) => r.id), c.text).toEqual(['c1']);
    }
  });
  it('an ancestral tomb, a father\'s ashes, another man\'s funeral, a tomb built in life or a rumour is no death of the subject', () => {
    for (const [scene, c] of [
      ['SC24', { subject: 'cato', text: "The tomb of the Porcii, where Cato's grandfather lies, stands by the Via Appia." }],
      ['SC24', { kind: 'object', subject: 'cato', text: "Cato keeps his father's ashes in a niche of the atrium." }],
      ['SC24', { subject: 'caesar', text: 'Caesar paid for the funeral of his aunt Julia, and the whole Forum came.' }],
      ['SC05', { subject: 'crassus', text: 'His tomb on the Appian Way, which he is building for himself, is half finished.' }],
      ['SC24', { kind: 'rumor', subject: 'cato', text: 'They say in the baths that Cato died at sea.' }],
      ['SC24', { subject: 'cato', text: "The funeral of Cato's freedman was paid from his own purse." }],
      ['SC24', { subject: 'servilia', text: 'Her villa at Tusculum will pass to her daughters after her death.' }],
      ['SC24', { subject: 'cato', text: 'Cato may yet breathe his last at Utica, if the ships do not come.' }],
      ['SC24', { subject: 'cato', text: 'He thought he would die at sea, but the ship came in to Brundisium.' }],
      ['SC24', { subject: 'caesar', text: 'His freedman breathed his last in the atrium, and Caesar paid for the pyre.' }],
      ['SC24', { subject: 'caesar', text: 'Caesar is no more a friend of the tax-farmers than Cato is.' }],
    ] as [string, Partial<Claim>][]) expect(claimCodes(scene, c), c.text).toEqual([]);
  });
});
