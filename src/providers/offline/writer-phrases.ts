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
    'The water-clock is filled; the speeches are timed, the grudges are not. {atmo}',
    'A juror yawns, and a senator notes his name. {atmo}',
    'The crowd presses against the railings. {atmo}',
    'Togas whitened with chalk, faces set like wax. {atmo}',
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
    'A cook shouts somewhere in the back; nobody in the front room hears it. {atmo}',
    'Scent of lilies and lamp oil. {atmo}',
    'Painted birds on the walls; real ones in a cage by the window. {atmo}',
    'D|Clients have been waiting in the atrium since first light. {atmo}',
    'A dog on a chain mosaic warns visitors: beware. {atmo}',
    'The couches are arranged so that nobody can see everyone. {atmo}',
    'A slave girl sweeps the same tile twice. {atmo}',
    'N|Wine, dates, and a silence nobody wants to break. {atmo}',
    'A child\'s laughter from somewhere upstairs, quickly hushed. {atmo}',
    'The household shrine is freshly garlanded; someone is praying hard. {atmo}',
    'D|A secretary reads out the day\'s letters, and pauses at one. {atmo}',
    'Curtains drawn against the street, and against the neighbours. {atmo}',
  ],
  senate: [
    'The Curia smells of old wax and older grudges. {atmo}',
    'Three hundred togas, and not one of them at ease. {atmo}',
    'The doors stand open to the Forum, so the crowd can hear every word. {atmo}',
    'Benches fill by faction, like armies drawing up. {atmo}',
    'The presiding consul taps his ivory rod once for silence. {atmo}',
    'A senator dozes; his neighbour counts votes on his fingers. {atmo}',
    'The ancestors of half the room are cast in bronze outside. {atmo}',
    'Whispers along the back benches, like wind in dry grass. {atmo}',
  ],
  temple: [
    'Incense hangs in the cella like a held breath. {atmo}',
    'The cult statue gazes over their heads at something far away. {atmo}',
    'Votive offerings crowd the steps. {atmo}',
    'A priest finishes the libation and does not look up. {atmo}',
    'Cool stone, gold leaf, and the sound of someone praying in earnest. {atmo}',
    'The smell of blood from the morning sacrifice has not faded. {atmo}',
    'Bronze doors, and beyond them, the god. {atmo}',
    'An old woman ties a ribbon to the railing and prays for her son. {atmo}',
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
    'A fuller\'s shop stinks of urine and wet wool. {atmo}',
    'Dice rattle in a doorway. {atmo}',
    'A litter forces its way through; the crowd curses the bearers. {atmo}',
    'D|Bread queue. Long. Angry. {atmo}',
    'N|A tavern door opens: light, noise, then dark again. {atmo}',
  ],
  port: [
    'Gulls. Rope. The stink of tar. {atmo}',
    'Amphorae stacked to the height of a man. {atmo}',
    'A grain barge rides low in the water. {atmo}',
    'D|Dockers chant. Overseers count. {atmo}',
    'Salt wind off the river mouth. {atmo}',
    'N|Lanterns on the quay. Water slapping stone. {atmo}',
    'Ropes creak. Somebody curses in Greek. {atmo}',
    'A customs clerk tallies sacks and trusts nobody. {atmo}',
    'The river is brown and full of other people\'s business. {atmo}',
  ],
  camp: [
    'Tents in straight lines. Fires in straight lines. {atmo}',
    'A centurion barks. Men move. {atmo}',
    'The smell of wet leather and porridge. {atmo}',
    'Standards planted. Sentries doubled. {atmo}',
    'Mules complain. Nobody else dares. {atmo}',
    'N|Watch fires. Low voices. A sentry stamping for warmth. {atmo}',
    'Somebody is sharpening something. Everyone is. {atmo}',
    'Horses stamp in the lines. {atmo}',
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
    'Sons do not disappoint their mothers twice.',
    'A household is a republic, {target}, and I am its consul.',
    'Smile, {target}. The slaves are watching.',
    'I have buried a husband. I can bury a scandal.',
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

/** Replies to a move, by how it went. */
export const REACTIONS = {
  success: [
    'Then it is done.',
    'You leave me little choice.',
    'So be it. Remember that I agreed.',
    'I will not forget this.',
    'Very well. On your head.',
    'Fine. But this changes nothing between us.',
    'Done. Now leave me.',
    'I hope you know what you have bought.',
    'Agreed. Do not make me regret it.',
    'As you wish. For now.',
  ],
  fail: [
    'No. Not today, and not to you.',
    'You overreach.',
    'That was clumsy. Everyone saw.',
    'Try that again and I will ruin you.',
    'You thought I would bend? Look again.',
    'Go home before you embarrass yourself further.',
    'Is that all you came with?',
    'Not like this. Never like this.',
    'You will have to do better than that.',
    'I have heard better offers from fishwives.',
  ],
};

/**
 * Global metrics as people feel them (the packet carries only their ids): [rising, falling]
 * sentences; {m} is not used, each line names its own subject so an inverse metric (more grain
 * means cheaper bread) reads the right way round.
 */
export const METRIC_LINES: Record<string, [string[], string[]]> = {
  unrest: [
    ['Beyond the walls, the streets grow angrier.', 'Across the city, shutters go up early and stay up.', 'By nightfall the anger in the streets will be worse.', 'In the Subura, men gather on corners and do not go home.', 'A baker on the Vicus Tuscus takes his loaves in before noon.', 'Somewhere a stone goes through a shutter, and no one sends for the watch.'],
    ['Across the city, the streets cool a little.', 'For a day, the anger in the streets subsides.', 'The crowds thin; the tenements breathe out.'],
  ],
  grain_index: [
    ['Somewhere, the price of bread drops by a coin.', 'The granaries fill a little; the bakers stop shouting.', 'For once the bread queues move quickly.'],
    ['The price of bread climbs again.', 'Across the city, the bread queues grow longer.', 'In the Subura, a loaf now costs a day\'s wage.'],
  ],
  legal_exposure: [
    ['The shadow of the courts grows longer.', 'Somewhere a prosecutor starts a new tablet.', 'The praetors\' lists grow longer by a name or two.'],
    ['The courts, for once, look elsewhere.', 'A prosecutor puts his tablets away, for now.', 'The shadow of the courts retreats a step.'],
  ],
  scandal_temp: [
    ['In the baths, the gossip runs hotter.', 'Across the city, the dining rooms find a new story.', 'By morning the barbershops will have it.', 'At the fountains, the slave girls have a new name to whisper.', 'Someone has already written it on a wall near the Forum.'],
    ['The gossip cools; the city finds something else to talk about.', 'In the baths, the talk turns to other things.', 'The scandal loses its heat, for now.'],
  ],
  senate_resolve: [
    ['In the Curia, the waverers stiffen.', 'The Senate finds a little of its nerve.', 'More senators now say aloud what they said in private.'],
    ['The Senate\'s nerve wavers.', 'In the Curia, men find reasons to stay home.', 'The benches grow cautious again.'],
  ],
  threat_level: [
    ['Across the city, the sense of danger climbs.', 'Men start to sleep with a blade under the pillow.', 'The watch is doubled at the gates, and it is not enough.', 'Doors that stood open all summer are barred by dusk.', 'The shopkeepers in the Argiletum count their stock and their exits.'],
    ['The sense of danger eases, for a night.', 'The gates are quieter; the watch stands easier.', 'For once, nobody checks the shadows twice.'],
  ],
  threat_to_goals: [
    ['Every plan in the city just got harder.', 'The odds against the schemers lengthen.', 'Somewhere a careful plan starts to come apart.'],
    ['For a moment, the schemers\' plans look possible again.', 'The odds shorten for the men with plans.', 'Somewhere a stalled plan starts to move.'],
  ],
  public_order: [
    ['Order returns to the streets, for now.', 'The watch walks the streets unchallenged.', 'The crossroads are quiet tonight.'],
    ['Order in the streets frays.', 'The watch keeps to the main roads now.', 'Nobody walks the alleys alone tonight.'],
  ],
  treasury: [
    ['The treasury fills a little.', 'The quaestors smile over their tablets.', 'The strongrooms of Saturn grow heavier.'],
    ['The treasury empties a little more.', 'The quaestors frown over their tablets.', 'The strongrooms of Saturn grow lighter.'],
  ],
};

/** For a metric without its own lines: {m} is its id in words. */
export const METRIC_FALLBACK: [string[], string[]] = [
  ['Across the city, the {m} climbs.', 'You can feel it from here: the {m} grows.'],
  ['Across the city, the {m} falls back.', 'For a moment, the {m} slackens.'],
];

/** How a transfer looks: {from} pays {to} {amount}. */
export const TRANSFER_LINES = [
  '{from} pays {to} {amount} denarii. The coins are counted twice.',
  '{amount} denarii change hands, from {from} to {to}.',
  '{from} has {amount} denarii counted out for {to}, coin by coin.',
  'A purse of {amount} denarii goes from {from} to {to}.',
  '{to} takes {amount} denarii from {from} and does not count them in front of anyone.',
];

/** A transfer to or from an institution's account ("the annona fund"), which cannot take or count anything. */
export const TRANSFER_LINES_ACCOUNT = [
  '{from} pays {amount} denarii to {to}.',
  '{amount} denarii go from {from} to {to}, and a clerk writes it down.',
  'The ledger moves: {amount} denarii, from {from} to {to}.',
];

/** A thread moves; {q} is its question (quoted in full once per scene at most). */
export const THREAD_QUESTION_LINES = [
  'One step nearer to an answer: {q}?',
  'The question hangs in the room: {q}?',
  'Everyone here is asking the same thing: {q}?',
  'And under it all, the question: {q}?',
];
/** Further threads in the same scene, by a short name ({t}: "Murena's trial", "the grain shortage"). */
export const THREAD_SHORT_LINES = [
  'And {t} moves a step.',
  '{T} turns, a notch tighter.',
  'This will matter for {t}.',
  '{T} is not finished yet.',
  'It all bears on {t}.',
];

/** How a minor character enters, indoors and out. */
export const ENTRANCES = ['{who} slips in.', '{who} appears at the door.', '{who} hurries in, out of breath.', '{who} waits to be noticed.', '{who} comes in with a lamp.', '{who} edges in.'];
export const ENTRANCES_OUTDOORS = ['{who} pushes through the crowd.', '{who} appears at an elbow.', '{who} comes running.', '{who} waits to be noticed.', '{who} steps out of a doorway.', '{who} whistles from across the way.'];

/** How a triggered risk lands (the risk text follows). */
export const RISK_LEADS = ['And then: ', 'Worse: ', 'It does not stay clean. ', 'The price comes at once: ', '', ''];

/** Intentions whose id reads badly as words (`MOUNT_DEFENCE` → "mount a defence"). */
export const INTENTION_PHRASES: Record<string, string> = {
  MOUNT_DEFENCE: 'mount a defence',
  SEEK_GUARD: 'find a bodyguard',
  RAISE_ARMS: 'raise an army',
  READ_THE_OMEN: 'read the omen',
  BOAST_TO_FULVIA: 'boast to Fulvia',
  KEEP_THE_OATH: 'keep the oath',
  REPAY_THE_MERCY: 'repay the mercy',
  SERVE_NEW_PATRON: 'serve a new patron',
  HOLD_THE_REFUGE: 'hold out in the refuge',
  TESTIFY: 'testify',
  USE_THE_LETTERS: 'use the letters',
};

/** Closing button lines; {name} is the last mover, {target} the one moved against. */
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
  '> {CUE}: Not a word of this to anyone.',
  'N|Somewhere across the city, a lamp goes out.',
  '> {CUE}: Good. Now the hard part.',
  '{name} waits until the footsteps fade, then breathes.',
  'D|A bell rings in the Forum. Nobody moves to answer it.',
  '> {CUE}: Remember this day. I will.',
  'Somewhere a dog starts barking, and does not stop.',
  '> {CUE}: We will see who blinks first.',
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

/** How an invented object is shown (the object follows). */
export const OBJECT_LEADS = ['On the table: ', 'Within reach: ', 'In plain sight, ', 'Nobody mentions it, but there it is: '];

export const OBJECTS = ['a wax tablet sealed with green wax', 'a signet ring on a cord', 'a purse stitched with a merchant\'s mark', 'a bronze lamp shaped like a ship', 'a torn page of a ledger', 'a clay token from the grain dole'];
/** Place details by setting, so a field never grows a household shrine. */
export const PLACE_DETAILS: Record<Setting, string[]> = {
  court: ['the clepsydra of the tribunal, its bowl half empty', 'a bench carved with the names of bored jurors', 'a bronze tablet of the law, green at the edges', 'a praetor\'s chair with one leg shimmed by a tile'],
  villa: ['a cracked fresco of Mars above the door', 'a shrine to the household gods with a fresh garland', 'a floor mosaic of dolphins worn smooth by feet', 'an old bloodstain scrubbed pale on the threshold', 'a bronze brazier that gives more smoke than heat', 'a painted garden on the wall of the dining room', 'a strongbox chained to the floor of the study', 'a wax mask of an ancestor with a chipped nose'],
  senate: ['a statue of Victory whose wings need gilding', 'a bench that creaks under whoever speaks longest', 'a draught from the bronze doors that nobody fixes'],
  temple: ['a votive shelf crowded with clay limbs', 'a smoke-blackened ceiling above the altar', 'a crack in the cult statue\'s plinth, filled with wax'],
  street: ['a shrine at the crossroads with a wilted garland', 'a wall covered in painted election slogans', 'a fountain spout shaped like a lion, dribbling', 'a public fountain with a queue of water-carriers', 'a tavern sign of a cockerel, half its paint gone'],
  port: ['a stack of broken amphorae by the harbour wall', 'a mooring post worn smooth by ropes', 'a customs table under a torn awning'],
  camp: ['a ditch freshly dug along the east side', 'a standard planted in a bed of stones', 'a row of tents patched with old cloaks'],
};

/** Stat moves, [up variants, down variants]; a scene picks one variant, so no line is stock. */
export const STAT_WORDS: Record<string, [string[], string[]]> = {
  wealth: [['{name}\'s fortune swells.', '{name} will be richer by morning.'], ['{name}\'s fortune shrinks.', '{name} is poorer for this, and knows it.']],
  dignitas: [
    ['{name} stands taller; everyone has noticed.', '{name}\'s standing rises; people step aside for {name} now.', 'People give {name} a little more room than before.'],
    ['{name}\'s standing takes a visible blow.', '{name} is smaller in every eye here now.', 'Everyone sees {name} diminished.', 'Nobody rises when {name} passes now.'],
  ],
  auctoritas: [['Men who ignored {name} yesterday nod now.', '{name}\'s word carries further than it did this morning.'], ['Men who deferred to {name} yesterday look away.', '{name}\'s word weighs less than it did.']],
  gratia: [['Favours flow toward {name}.', 'Suddenly, many people owe {name} a kindness.'], ['Favours owed to {name} quietly evaporate.', 'The friends of {name} find they are busy elsewhere.']],
  fama: [
    ['By dusk, {name}\'s name will be on every lip.', 'The story of {name} will be told in every tavern tonight.'],
    ['By dusk, {name}\'s name will be a joke in the barbershops.', 'The barbers will be laughing at {name} by morning.', 'The crowd will remember this about {name}, and not kindly.'],
  ],
  cunning: [['{name} sees the angle before anyone else.', 'Nothing here escapes {name}.'], ['{name} misses the angle entirely.', 'For once, {name} does not see it coming.']],
  courage: [['Something hardens in {name}.', '{name} finds a nerve that was not there before.'], ['Something in {name} gives way.', '{name}\'s nerve fails, just for a moment, and it shows.']],
};

export const WEIGHT_WORDS: Record<string, [string[], string[]]> = {
  loyalty: [['{from} will stand with {to} now.', '{from} is {to}\'s, now, for better or worse.'], ['{from}\'s loyalty to {to} cracks.', '{from} no longer counts as {to}\'s friend.']],
  fear: [['{from} looks at {to} and, for the first time, is afraid.', '{from} has learned to fear {to}.'], ['{from} stops fearing {to}.', '{from} looks at {to} and is no longer afraid.']],
  debt: [['{from} owes {to}, and both of them know it.', '{from} is in {to}\'s debt now.'], ['A debt between {from} and {to} is cancelled.', '{from} owes {to} a little less tonight.']],
  affection: [['{from} softens toward {to}.', '{from} warms to {to}, despite everything.'], ['{from} cools toward {to}.', 'Something between {from} and {to} goes cold.']],
  rivalry: [['{from} marks {to} as an enemy.', '{from} will not forget what {to} did here.', 'From now on, {from} counts {to} among the enemies.'], ['The rivalry between {from} and {to} eases.', '{from} lets an old grudge against {to} go.']],
  trust: [['{from} decides to trust {to}.', '{from} takes {to} at their word.'], ['{from} will never trust {to} again.', '{from} stops believing a word {to} says.']],
};

/** Minor characters by setting; every name belongs to one setting and one role, so an extra is the same person all season. */
export const EXTRAS: Record<Setting, { name: string; role: string }[]> = {
  court: [{ name: 'Phileros', role: 'freedman scribe' }, { name: 'Eutychus', role: 'court usher' }, { name: 'Gorgias', role: 'juror\'s slave' }],
  villa: [{ name: 'Onesimus', role: 'doorkeeper' }, { name: 'Chrysis', role: 'wine steward' }, { name: 'Pamphilus', role: 'freedman secretary' }, { name: 'Sosia', role: 'lady\'s maid' }],
  senate: [{ name: 'Tyndarus', role: 'clerk' }, { name: 'Nicanor', role: 'lictor\'s boy' }],
  temple: [{ name: 'Thallus', role: 'temple slave' }, { name: 'Daphnis', role: 'haruspex\'s boy' }],
  street: [{ name: 'Hermeros', role: 'cookshop owner' }, { name: 'Doris', role: 'water-carrier' }, { name: 'Callidamas', role: 'runner' }],
  port: [{ name: 'Syrus', role: 'tally-clerk' }, { name: 'Lycus', role: 'boatman' }],
  camp: [{ name: 'Tertius', role: 'orderly' }, { name: 'Bato', role: 'mule driver' }],
};

/** Words a sentence may start with that are not names: only these lose their capital mid-sentence. */
const COMMON_LEADS = new Set(['the', 'a', 'an', 'his', 'her', 'their', 'its', 'it', 'there', 'this', 'that', 'these', 'those', 'one', 'some', 'every', 'no', 'all', 'most', 'half', 'two', 'three', 'several', 'someone', 'somebody', 'nobody', 'he', 'she', 'they', 'we', 'our', 'my', 'in', 'at', 'on', 'for', 'after', 'before', 'when', 'while']);

/**
 * Lower-cases the first letter of a text that will follow a colon or "that", but only when its
 * first word is a common word: "The vote-brokers …" → "the vote-brokers …", while "Murena's
 * vote-brokers …" keeps its capital.
 */
export function lowerLead(s: string): string {
  const m = /^(\p{L}+)/u.exec(s);
  if (!m || !COMMON_LEADS.has(m[1]!.toLowerCase())) return s;
  return s[0]!.toLowerCase() + s.slice(1);
}
