import type { Register, Setting } from '../../domain/world.js';

/**
 * Phrase pools for the offline writer. Placeholders: {name} {target} {place} {time} {atmo}.
 * Pools are large enough that a seeded pick rarely repeats inside an episode; every phrase is
 * period-safe (the writer still scrubs lexicon words as a last line of defence).
 */

export const FORMAL_SETTINGS: readonly Setting[] = ['court', 'villa', 'senate', 'temple'];
export const THRILLER_SETTINGS: readonly Setting[] = ['street', 'port', 'camp'];

export const OPENINGS: Record<Setting, string[]> = {
  court: [
    'The basilica is full before the magistrate arrives. {atmo}',
    'Benches creak under the weight of clients and the curious. {atmo}',
    'Wax tablets, scribes, and a hundred whispered wagers. {atmo}',
    'The praetor\'s chair stands empty, and every eye keeps returning to it. {atmo}',
    'D|Light falls in long bars across the tribunal. {atmo}',
    'Advocates pace. Witnesses wait. {atmo}',
  ],
  villa: [
    'N|Lamps burn low along the colonnade. {atmo}',
    'D|The atrium pool holds a small, trembling sky. {atmo}',
    'Slaves move without sound between the couches. {atmo}',
    'The masks of the ancestors watch from their cupboards. {atmo}',
    'A fountain murmurs in the peristyle, as if it had secrets of its own. {atmo}',
    'D|Sunlight slants through the compluvium onto cold marble. {atmo}',
    'A slave trims a wick that does not need trimming, and listens. {atmo}',
    'N|The dinner has been cleared; the real business begins. {atmo}',
  ],
  senate: [
    'The Curia smells of old wax and older grudges. {atmo}',
    'Three hundred togas, and not one of them at ease. {atmo}',
    'The doors stand open to the Forum, so the crowd can hear every word. {atmo}',
    'Benches fill by faction, like armies drawing up. {atmo}',
    'The presiding consul taps his ivory rod once for silence. {atmo}',
  ],
  temple: [
    'Incense hangs in the cella like a held breath. {atmo}',
    'The cult statue gazes over their heads at something far away. {atmo}',
    'Votive offerings crowd the steps. {atmo}',
    'A priest finishes the libation and does not look up. {atmo}',
    'Cool stone, gold leaf, and the sound of someone praying in earnest. {atmo}',
  ],
  street: [
    'Mud. Shouting. A cart stuck in the Subura. {atmo}',
    'Smoke from a cookshop. A dog barking. {atmo}',
    'Too many people. Not enough room. {atmo}',
    'D|Laundry overhead. Knives underneath. {atmo}',
    'A street preacher rants at nobody. Nobody listens. {atmo}',
    'Shutters bang. A child runs. {atmo}',
    'N|Torches gutter in brackets. Doorways full of shadow. {atmo}',
    'N|A watchman\'s call. Then nothing. {atmo}',
  ],
  port: [
    'Gulls. Rope. The stink of tar. {atmo}',
    'Amphorae stacked to the height of a man. {atmo}',
    'A grain barge rides low in the water. {atmo}',
    'D|Dockers chant. Overseers count. {atmo}',
    'Salt wind off the river mouth. {atmo}',
    'N|Lanterns on the quay. Water slapping stone. {atmo}',
    'Ropes creak. Somebody curses in Greek. {atmo}',
  ],
  camp: [
    'Tents in straight lines. Fires in straight lines. {atmo}',
    'A centurion barks. Men move. {atmo}',
    'The smell of wet leather and porridge. {atmo}',
    'Standards planted. Sentries doubled. {atmo}',
    'Mules complain. Nobody else dares. {atmo}',
    'N|Watch fires. Low voices. A sentry stamping for warmth. {atmo}',
  ],
};

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
  ],
  orator: [
    'Consider, {target}, how this will sound when I repeat it in the Forum.',
    'Words are cheaper than swords and cut deeper.',
    'I have argued worse cases than yours and won them.',
    'Give me one honest sentence, {target}, and I will build you a defence.',
    'The crowd does not want the truth. It wants a story. I tell stories.',
    'Let the record show that I asked politely.',
  ],
  soldier: [
    'Say it plainly, {target}.',
    'I have buried men for less.',
    'Orders are orders. Whose orders, though?',
    'You want loyalty? Pay the men.',
    'I do not like this ground.',
    'Hold the line. Then we talk.',
  ],
  street: [
    'Everyone in the Subura knows, {target}. Everyone.',
    'You want it quiet? Quiet costs.',
    'Don\'t look at me like that. I just carry messages.',
    'Bread first. Speeches after.',
    'The tenements talk, {target}. Loudly.',
    'I saw nothing. For a price, I saw everything.',
  ],
  merchant: [
    'Everything has a price, {target}. Even silence.',
    'The margin on this is an insult, and I accept it.',
    'Ships sink. Contracts do not.',
    'I count twice and trust once.',
    'Grain rises, grain falls. I do not.',
    'Let us speak of interest, {target}. Yours and mine.',
  ],
  matron: [
    'You forget who arranged your marriage, {target}.',
    'I hear everything said at my table, and most of what is not.',
    'Sons do not disappoint their mothers twice.',
    'A household is a republic, {target}, and I am its consul.',
    'Smile, {target}. The slaves are watching.',
    'I have buried a husband. I can bury a scandal.',
  ],
  priestly: [
    'The auspices were unclear, {target}. They can be made clear.',
    'The gods keep accounts too.',
    'I read the entrails. I also read men.',
    'There are rites for this, {target}. Expensive ones.',
    'Piety is a public matter. Guilt is a private one.',
    'Listen: even the birds are nervous today.',
  ],
  servile: [
    'As you say, master.',
    'I only heard what I was meant to hear, domina.',
    'The message is delivered. I was never here.',
    'Forgive me. The door was open.',
    'I will say nothing. I have said nothing for years.',
    'Shall I fetch the others?',
  ],
};

/** Replies to a move, by how it went. */
export const REACTIONS = {
  success: [
    'Then it is done.',
    'You leave me little choice.',
    'So be it. Remember that I agreed.',
    'I will not forget this.',
    'Very well. On your head.',
    'Fine. But this changes nothing between us.',
  ],
  fail: [
    'No. Not today, and not to you.',
    'You overreach.',
    'That was clumsy. Everyone saw.',
    'Try that again and I will ruin you.',
    'You thought I would bend? Look again.',
    'Go home before you embarrass yourself further.',
  ],
};

/** Closing button lines; {name} is the last mover, {target} the one moved against. */
/** Global metrics as people feel them (the packet carries only their ids). */
export const METRIC_WORDS: Record<string, string> = {
  unrest: 'anger in the streets',
  grain_index: 'price of bread',
  legal_exposure: 'shadow of the courts',
  scandal_temp: 'heat of scandal',
  threat_level: 'sense of danger',
  threat_to_goals: 'danger to every plan',
  public_order: 'order in the streets',
  treasury: 'treasury',
};

export const HOOKS = [
  '{name} does not look back. Behind, {target} has already begun to plan.',
  'The door closes. Somewhere, a tally changes.',
  '> {CUE}: Tomorrow, then. And tomorrow I will not be alone.',
  '> {CUE}: Tell no one. Especially not your friends.',
  'N|Only the lamp sees {name} smile.',
  '{target} stays where {name} left them, very still.',
  '> {CUE}: Let them come.',
  'A seal is broken. A name is crossed out.',
  '> {CUE}: Now we find out who was lying.',
  'Outside, someone has been listening the whole time.',
  '> {CUE}: That was the easy part.',
  '> {CUE}: Write it down. Someone will want to read it at my trial.',
  '{name} counts to ten, slowly, and smiles at nobody.',
  '> {CUE}: Find out who else knows. Tonight.',
  'Nobody notices the tablet missing from the table. Not yet.',
  'The wax cools. The promise holds. For now.',
  'D|In the hard light nobody can pretend not to have heard.',
];

export const CLIFFHANGER_HOOKS = [
  'A blade flashes at the edge of the light, and everything stops.',
  '> {CUE}: Then you know. And now they will come for both of us.',
  'The shout goes up outside: fire in the granaries.',
  '{name} turns, and finds the doorway already full of armed men.',
];

export const TIME_WORDS: Record<string, string> = {
  dawn: 'DAWN',
  morning: 'MORNING',
  day: 'DAY',
  afternoon: 'AFTERNOON',
  dusk: 'DUSK',
  night: 'NIGHT',
};

/** Names for extras the writer may invent (as minor_character claims). */
export const EXTRA_NAMES = ['Phileros', 'Eutychus', 'Onesimus', 'Chrysis', 'Pamphilus', 'Tyndarus', 'Sosia', 'Hermeros', 'Doris', 'Callidamas'];
/** Extras by setting: a doorkeeper belongs in a house, a docker on the quay. */
export const EXTRA_ROLES: Record<Setting, string[]> = {
  court: ['freedman scribe', 'runner', 'juror\'s slave', 'court usher'],
  villa: ['doorkeeper', 'wine steward', 'lamp-boy', 'bath attendant', 'freedman secretary'],
  senate: ['clerk', 'runner', 'lictor\'s boy'],
  temple: ['temple slave', 'haruspex\'s boy', 'incense seller'],
  street: ['runner', 'cookshop boy', 'water-carrier', 'messenger'],
  port: ['docker', 'tally-clerk', 'boatman', 'messenger'],
  camp: ['orderly', 'mule driver', 'messenger'],
};
export const EXTRA_LINES = [
  'A message, for your eyes only.',
  'They are waiting for you.',
  'The litter is ready.',
  'Someone left this at the gate.',
  'Forgive me. There are men asking for you by name.',
  'The seal was broken when it reached me. I swear it.',
  'Shall I send them away?',
  'Your brother\'s man is outside. He will not give his name.',
  'They say the consul has already heard.',
  'It is done, as you asked.',
];

export const OBJECTS = ['a wax tablet sealed with green wax', 'a signet ring on a cord', 'a purse stitched with a merchant\'s mark', 'a bronze lamp shaped like a ship', 'a torn page of a ledger', 'a clay token from the grain dole'];
/** Place details by setting, so a field never grows a household shrine. */
export const PLACE_DETAILS: Record<Setting, string[]> = {
  court: ['the clepsydra of the tribunal, its bowl half empty', 'a bench carved with the names of bored jurors', 'a bronze tablet of the law, green at the edges'],
  villa: ['a cracked fresco of Mars above the door', 'a shrine to the household gods with a fresh garland', 'a floor mosaic of dolphins worn smooth by feet', 'an old bloodstain scrubbed pale on the threshold'],
  senate: ['a statue of Victory whose wings need gilding', 'a bench that creaks under whoever speaks longest', 'a draught from the bronze doors that nobody fixes'],
  temple: ['a votive shelf crowded with clay limbs', 'a smoke-blackened ceiling above the altar', 'a crack in the cult statue\'s plinth, filled with wax'],
  street: ['a shrine at the crossroads with a wilted garland', 'a wall covered in painted election slogans', 'a fountain spout shaped like a lion, dribbling'],
  port: ['a stack of broken amphorae by the harbour wall', 'a mooring post worn smooth by ropes', 'a customs table under a torn awning'],
  camp: ['a ditch freshly dug along the east side', 'a standard planted in a bed of stones', 'a row of tents patched with old cloaks'],
};

export const STAT_WORDS: Record<string, [string, string]> = {
  wealth: ['{name}\'s fortune swells.', '{name}\'s fortune shrinks.'],
  dignitas: ['{name} stands taller; the room has noticed.', '{name}\'s standing takes a visible blow.'],
  auctoritas: ['Men who ignored {name} yesterday nod now.', 'Men who deferred to {name} yesterday look away.'],
  gratia: ['Favours flow toward {name}.', 'Favours owed to {name} quietly evaporate.'],
  fama: ['By dusk, {name}\'s name will be on every lip.', 'By dusk, {name}\'s name will be a joke in the barbershops.'],
  cunning: ['{name} sees the angle before anyone else.', '{name} misses the angle entirely.'],
  courage: ['Something hardens in {name}.', 'Something in {name} gives way.'],
};

export const WEIGHT_WORDS: Record<string, [string, string]> = {
  loyalty: ['{from} will stand with {to} now.', '{from}\'s loyalty to {to} cracks.'],
  fear: ['{from} looks at {to} and, for the first time, is afraid.', '{from} stops fearing {to}.'],
  debt: ['{from} owes {to}, and both of them know it.', 'A debt between {from} and {to} is cancelled.'],
  affection: ['{from} softens toward {to}.', '{from} cools toward {to}.'],
  rivalry: ['{from} marks {to} as an enemy.', 'The rivalry between {from} and {to} eases.'],
  trust: ['{from} decides to trust {to}.', '{from} will never trust {to} again.'],
};
