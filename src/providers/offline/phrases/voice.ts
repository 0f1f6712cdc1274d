import type { Register } from '../../../domain/world.js';

/** How people sound: beats by mode, rhetorical devices and lines in each voice register (dialogue samples). */

/** Short, punchy fragments for street/port/camp scenes (thriller mode). */
export const THRILLER_BEATS = [
  'Eyes on the exits.',
  'Nobody moves.',
  'A hand drifts toward a knife. Stops.',
  'Footsteps. Then none.',
  'Quick glance. Quicker answer.',
  'Somebody is listening. Somebody always is.',
  'The crowd shifts. A gap opens. Closes.',
  'Breath held. Let go.',
  'Coins clink in a sleeve.',
  'A shout, far off. Then laughter.',
  'Too quiet now.',
  'Time to go. Not yet.',
  'A shutter creaks overhead.',
  'Boots in the alley. They pass.',
  'Somebody spits. Somebody laughs.',
  'The smell of smoke, from somewhere.',
];

/** Quiet observations for formal settings. */
export const FORMAL_BEATS = [
  'A pause, long enough to be an insult.',
  'Someone adjusts the fold of a toga, buying a heartbeat.',
  'The silence is the kind that gets remembered.',
  'Somewhere a scribe stops writing.',
  'A smile is offered and not returned.',
  'The lamp gutters; nobody tends it.',
  'Every word is being weighed, and everyone knows it.',
  'Courtesy, sharpened to a point.',
  'A cup is refilled that nobody asked to be refilled.',
  'Two clients exchange a look and then look away.',
  'The host laughs a moment too late.',
  'Somebody coughs, and everyone is grateful.',
  'A ring turns on a finger, once, twice.',
  'The words hang there; nobody picks them up.',
  'A slave freezes with the wine jug half raised.',
  'Politeness, thin as gold leaf.',
];

/** Rhetorical devices for court/villa/senate/temple (spec §6.3 voice control). */
export const RHETORIC: Record<'anaphora' | 'tricolon' | 'sententia', string[]> = {
  anaphora: [
    'Not for gold. Not for glory. Not for you. For Rome.',
    'I remember the promise. I remember the price. I remember who paid it.',
    'Every vote has a master. Every master has a debt. Every debt comes due.',
    'You may buy the jury. You may buy the crowd. You may not buy me.',
    'Who kept faith? Who kept silent? Who kept the coin?',
    'Let them talk. Let them stare. Let them count the cost afterwards.',
    'Once I trusted you. Once I defended you. Once.',
    'We were friends at the games. We were friends in the Forum. We are not friends here.',
  ],
  tricolon: [
    'I came for an answer, I stayed for the wine, I leave with a debt.',
    'Patience, pressure, and then the knife.',
    'Grain, gold and gratitude: that is how the city is ruled.',
    'You flattered me, you used me, you forgot me.',
    'A name, a favour, a vote.',
    'Swift to promise, slow to pay, quick to forget.',
    'First the whisper, then the rumour, then the verdict.',
    'Ask the Senate, ask the crowd, ask the gods; the answer is the same.',
  ],
  sententia: [
    'A debt remembered is a debt half paid.',
    'The Forum forgives everything except weakness.',
    'Whoever feeds the city owns its gratitude.',
    'Friendship in Rome lasts exactly as long as an election.',
    'Secrets are the only coin that grows when spent.',
    'The gods favour the prepared, and so do juries.',
    'A man without clients is a man without a future.',
    'Fear is cheaper than loyalty, and lasts longer.',
  ],
};

/** Lines in each voice register; {target} is the person addressed. */
export const REGISTER_LINES: Record<Register, string[]> = {
  patrician: [
    'My family has outlasted better men than you, {target}.',
    'You mistake my courtesy for patience.',
    'We do not haggle, {target}. We remember.',
    'Choose your next words as if your name depended on them. It does.',
    'Let us not pretend this is a conversation between equals.',
    'The ancestors are watching, {target}. Try to be worth their attention.',
    'I was consul-born, {target}. You were merely elected.',
    'My grandfather would have had you whipped. I merely take note.',
    'There are families in this city, {target}, and then there is mine.',
  ],
  orator: [
    'Consider, {target}, how this will sound when I repeat it in the Forum.',
    'Words are cheaper than swords and cut deeper.',
    'I have argued worse cases than yours and won them.',
    'Give me one honest sentence, {target}, and I will build you a defence.',
    'The crowd does not want the truth. It wants a story. I tell stories.',
    'Let the record show that I asked politely.',
    'I will say this once, {target}, and the scribes will copy it for ever.',
    'Every argument has a weak point. Yours is you.',
    'Do not make me quote you to yourself.',
  ],
  soldier: [
    'Say it plainly, {target}.',
    'I have buried men for less.',
    'Orders are orders. Whose orders, though?',
    'You want loyalty? Pay the men.',
    'I do not like this ground.',
    'Hold the line. Then we talk.',
    'I count spears, {target}, not promises.',
    'A soldier remembers who paid him, and who did not.',
  ],
  street: [
    'Everyone in the Subura knows, {target}. Everyone.',
    'You want it quiet? Quiet costs.',
    'Don\'t look at me like that. I just carry messages.',
    'Bread first. Speeches after.',
    'The tenements talk, {target}. Loudly.',
    'I saw nothing. For a price, I saw everything.',
    'Three crews, {target}, and every one of them owes me.',
    'Nobody walks through here without my say.',
  ],
  merchant: [
    'Everything has a price, {target}. Even silence.',
    'The margin on this is an insult, and I accept it.',
    'Ships sink. Contracts do not.',
    'I count twice and trust once.',
    'Grain rises, grain falls. I do not.',
    'Let us speak of interest, {target}. Yours and mine.',
    'A bargain is only a bargain if both of us are a little unhappy.',
    'I have bought better men than you, {target}, and at a discount.',
    'Interest compounds. So does resentment.',
  ],
  matron: [
    'You forget who arranged your marriage, {target}.',
    'I hear everything said at my table, and most of what is not.',
    'A family forgives once. I keep the count.',
    'A household is a republic, {target}, and I am its consul.',
    'Smile, {target}. The slaves are watching.',
    'I have buried worse than a scandal, {target}.',
    'I married into this family, {target}. I did not surrender to it.',
    'The women of this city talk, and I listen.',
  ],
  priestly: [
    'The auspices were unclear, {target}. They can be made clear.',
    'The gods keep accounts too.',
    'I read the entrails. I also read men.',
    'There are rites for this, {target}. Expensive ones.',
    'Piety is a public matter. Guilt is a private one.',
    'Listen: even the birds are nervous today.',
    'The gods are patient, {target}. I am not.',
    'Every omen is a question. I decide the answer.',
  ],
  servile: [
    'As you say, master.',
    'I only heard what I was meant to hear, domina.',
    'The message is delivered. I was never here.',
    'Forgive me. The door was open.',
    'I will say nothing. I have said nothing for years.',
    'Shall I fetch the others?',
    'I saw nothing, and I will go on seeing nothing.',
  ],
};

/**
 * What a speaker adds after a register line, in the same voice (the empty coda is the bare line).
 * Line × coda makes each register's pool large enough that every scene of an episode owns its
 * own lines (writer-lines.ts). No coda says "you": a line said to nobody must not need one.
 */
export const REGISTER_CODAS: Record<Register, string[]> = {
  patrician: ['', 'Remember whose house this is.', 'I will not say it twice.', 'Think on it.', 'That is all.', 'My ancestors would agree.', 'Consider it said.'],
  orator: ['', 'Mark that.', 'The record will show it.', 'I rest my case.', 'Think on it.', 'That is the argument.', 'Let it be written down.'],
  soldier: ['', 'That is all.', 'No speeches.', 'Move.', 'I have said it.', 'Think on it.', 'Enough.'],
  street: ['', 'Ask anyone.', 'That is how it is.', 'Nothing personal.', 'Mind the step.', 'Word gets round.', 'Enough said.'],
  merchant: ['', 'Think of the margin.', 'That is the price.', 'The ledger agrees.', 'Sign here.', 'Nothing personal.', 'Business is business.'],
  matron: ['', 'I keep the count.', 'Think on it.', 'That is all.', 'The household will hear of it.', 'I have said it.', 'Remember it.'],
  priestly: ['', 'The gods have seen it.', 'So the rites say.', 'Think on it.', 'It is written in the entrails.', 'Let that be enough.', 'I have spoken.'],
  servile: ['', 'If it please.', 'I swear it.', 'On my back.', 'Truly.', 'That is all I know.', 'Please.'],
};

/** The three devices as one pool, so every formal scene of an episode owns its own figure of speech. */
export const RHETORIC_ALL: readonly string[] = [...RHETORIC.anaphora, ...RHETORIC.tricolon, ...RHETORIC.sententia];
