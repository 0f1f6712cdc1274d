import { beforeAll, describe, expect, it } from 'vitest';
import type { PacketInstruction, ScenePacket } from '../../../src/domain/packet.js';
import type { VerifyContext } from '../../../src/stages/f-verifier/context.js';
import { successLexicon } from '../../../src/stages/f-verifier/prose/success-words.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { proseRules } from '../../../src/stages/f-verifier/prose/index.js';
import { codes, contextOf, findings, packets, usePackets } from './prose-scenes.js';

// A beat planned to fail shown succeeding in its operator's own words for success (AUR5035), read from the
// operator's data (prose/success-words.ts): the starter's op_seize_warehouses and op_reconciliation set on the
// writer corpus's packets, and an operator no world ships, to show the words come from the data, not a list.
usePackets();

/** A packet whose one beat is `operator`, planned to fail, bound to `bindings`, with `directive` as its fail text. */
function failing(from: string, operator: string, name: string, bindings: Record<string, string>, directive: string): ScenePacket {
  const p = packets[from]!;
  const beat: PacketInstruction = { ...p.director_instructions.sequence[0]!, operator_id: operator, operator_name: name, bindings, outcome: 'fail', narrative_directive: directive, tag: null };
  return { ...p, director_instructions: { purpose: name, sequence: [beat] }, constraints: { ...p.constraints, required_deltas: [] } };
}

/** An operator of some other world: poisoning, with its directives. */
const POISON = {
  id: 'op_poison_cup',
  name: 'Poison the cup',
  success: 'target drinks from the cup; by dawn the household is in mourning and the physicians whisper.',
  fail: 'target smells the wine and pours it on the floor; actor is left holding an empty cup.',
  roles: ['actor', 'target'],
};

beforeAll(() => {
  packets.SEIZE = failing('SC02', 'op_seize_warehouses', 'Seal the warehouses', { actor: 'cato', target: 'murena' }, "Lucius Licinius Murena's warehouses are empty, or Lucius Licinius Murena produces a contract that makes Marcus Porcius Cato's seal illegal.");
  packets.RECONCILE = failing('SC21', 'op_reconciliation', 'Reconciliation', { actor: 'fulvia', target: 'terentia' }, "Terentia refuses Fulvia's offer, and the wound is deeper for having been reopened.");
  packets.POISON = failing('SC24', 'op_poison_cup', 'Poison the cup', { actor: 'caesar', target: 'cato' }, 'Marcus Porcius Cato smells the wine and pours it on the floor; Gaius Julius Caesar is left holding an empty cup.');
});

const LEAD = 'Rain runs off the roof tiles into the gutter, and somewhere in the house a slave is singing an old country song about goats.';
const outcome = (scene: string, body: string) => {
  const f = scene === 'POISON' ? findingsWith(scene, body) : findings(scene, body);
  return f.filter((x) => x.code === 'AUR5035').map((x) => `${x.severity} ${x.span?.text ?? ''}`);
};

/** findings() with the world's operators and one more, as a world that ships it would give. */
function findingsWith(scene: string, body: string) {
  const ctx = contextOf(scene);
  const withOp: VerifyContext = { ...ctx, operators: [...(ctx.operators ?? []), POISON] };
  const cast = withOp.packet.cast.map((c) => c.name).join(', ');
  return proseRules(parseWriterOutput(`---SCENE_TEXT---\n## SC24 — INT. SOMEWHERE - NIGHT\n\n**Cast:** ${cast}\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`), withOp, []);
}

describe("a failing beat shown coming off in its operator's own success words (AUR5035)", () => {
  it('reads the words from the operator: its name and id, its success directive, less what its fail directive shares', () => {
    const words = (scene: string, extra: object[] = []) => [...successLexicon(packets[scene]!.director_instructions.sequence[0]!, { ...contextOf(scene), operators: [...(contextOf(scene).operators ?? []), ...extra] } as VerifyContext).verbs.keys()].sort();
    // "seal" is in the fail directive too ("makes actor's seal illegal"): no sign either way.
    expect(words('SEIZE')).toEqual(['seize']);
    expect(words('RECONCILE')).toEqual(expect.arrayContaining(['embrace', 'reconcile']));
    expect(words('RECONCILE')).not.toContain('speak');
    expect(words('POISON', [POISON])).toEqual(expect.arrayContaining(['drink', 'poison']));
    // A packet verified without the world's operators: the act's own name still speaks.
    const bare = { ...contextOf('SEIZE'), operators: undefined } as VerifyContext;
    expect([...successLexicon(packets.SEIZE!.director_instructions.sequence[0]!, bare).verbs.keys()]).toEqual(['seize']);
  });

  it('the audit\'s answers: the grain seized, the two reconciled, are hard', () => {
    expect(outcome('SEIZE', `${LEAD}\n\nMurena has no contract and no answer. The lictors break the doors; the sacks come out into the light, and the crowd roars as Cato's seal goes onto every one. Murena's grain is seized.\n\nCato watches it carted away.`)).toEqual(["hard Murena's grain is seized."]);
    expect(outcome('RECONCILE', `${LEAD}\n\nTerentia takes Fulvia's hand and holds it a long time. "Yes," she says. "We begin again."\n\nThey embrace before the household gods, reconciled, and the old wound closes.\n\nA slave in the corridor sees it, and smiles.`)).toEqual(['hard They embrace before the household gods, reconciled, and the old wound closes.']);
  });

  it('other words, other order, the past tense, another world\'s operator', () => {
    const hard = (scene: string, body: string) => expect(outcome(scene, `${LEAD}\n\n${body}`).map((x) => x.split(' ')[0]), body).toEqual(['hard']);
    hard('SEIZE', 'By noon the warehouses of Murena are seized and sealed, and the crowd cheers every sack that comes out.');
    hard('SEIZE', 'The lictors break the doors. By nightfall every granary Murena owns stands seized, and Cato goes home to supper.');
    hard('RECONCILE', 'Fulvia and Terentia embrace at last, and neither of them speaks of the old quarrel again.');
    hard('RECONCILE', '"Enough," Terentia says, and opens her arms. They are reconciled before the lamp has burned down.');
    // The embrace in other words: a reciprocal hold, one letting the other take their hands.
    hard('RECONCILE', 'Fulvia crosses the room and kneels by the couch. After a while they hold each other, the way they did before the consulship.');
    hard('RECONCILE', 'Fulvia reaches across the table, and Terentia lets her take both her hands.');
    hard('RECONCILE', 'Terentia and Fulvia stand in each other\'s arms in the middle of the atrium, and the slaves find somewhere else to be.');
    hard('POISON', 'Caesar pours the wine himself. Cato drinks, slowly, to the last drop, and sets the cup down.');
    // Told in the past: its simple past and "was seized" are the scene's now.
    expect(outcome('SEIZE', 'Cato waited in the Forum. Murena came late. Cato read the order aloud, and Murena said nothing at all.\n\nThe lictors broke the doors at noon. By nightfall the grain of Murena was seized, and Cato went home to supper.').map((x) => x.split(' ')[0])).toEqual(['hard']);
    expect(outcome('RECONCILE', 'Fulvia came at dusk. Terentia received her in the atrium. Fulvia spoke first, and Terentia listened without a word.\n\nThen Terentia opened her arms, and the two women embraced before the household gods.').map((x) => x.split(' ')[0])).toEqual(['hard']);
  });

  it('stays clean on the attempt, a hope, a question, a denial, a memory, and an attempt then its failure', () => {
    const clean = (scene: string, body: string) => expect(outcome(scene, `${LEAD}\n\n${body}`), body).toEqual([]);
    clean('SEIZE', 'Cato arrives with two lictors. He means to seize the grain before noon.\n\nMurena produces a contract, and Cato reads it twice.');
    clean('SEIZE', 'The grain is seized, but within the hour Murena produces a contract with the praetor\'s mark, and the lictors carry every sack back.');
    clean('SEIZE', 'Cato, who once seized a grain ship at Ostia and lost the case, stands with his hands behind him and waits.');
    clean('SEIZE', 'Cato orders the doors broken. The lictors break them. Inside, the sheds are empty, swept clean, not a sack in them.');
    clean('RECONCILE', 'Fulvia holds out her hand. Terentia almost takes it. For a moment they might embrace.\n\nThen Terentia turns away.');
    clean('RECONCILE', 'Would they ever be reconciled? Terentia does not know, and does not ask.');
    clean('RECONCILE', 'They embrace, stiffly, because the household is watching.\n\nThen Terentia steps back. "No," she says. "I refuse your offer."');
    clean('RECONCILE', 'Fulvia tries to embrace her, and Terentia steps out of reach.');
    clean('RECONCILE', 'Fulvia reaches for her hands. Terentia does not let her take her hands, and the slave at the door looks away.');
    clean('RECONCILE', 'Terentia remembers how they used to hold each other as girls, when the house was small. Now she refuses the cup.');
    clean('RECONCILE', 'They might hold each other, Fulvia thinks, if either of them would move first. Neither does.');
    clean('POISON', 'Caesar pours the wine. Cato lifts the cup, smells it, and pours it on the floor between them.');
    clean('POISON', 'Caesar watches Cato over the rim of his own cup. If Cato drinks, it is over.');
  });

  it('the offline writer\'s own packets are untouched: no operator words for a beat planned to succeed', () => {
    expect(codes(findings('SC05', `${LEAD}\n\n"Three thousand," Crassus says. Clodius counts three thousand denarii onto the table and understands who owns him.`))).toEqual([]);
  });
});
