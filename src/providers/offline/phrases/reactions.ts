/** What a move does, told: replies, metric, stat and weight moves, transfers, threads, risks, intentions. */

/** Replies to a move, by how it went. */
/**
 * What follows a reply (the empty tail is the bare reply): reply × tail gives each scene of an
 * episode its own replies (writer-lines.ts), so no reply comes back in another mouth.
 */
/** Replies to a move, by how it went: one for each scene of an episode (writer-lines.ts), so no reply is said twice. */
export const REACTIONS = {
  success: [
    'Then it is done.', 'You leave me little choice.', 'So be it. Remember that I agreed.', 'I will not forget this.', 'Very well. On your head.',
    'Fine. But this changes nothing between us.', 'Done. Now leave me.', 'I hope you know what you have bought.', 'Agreed. Do not make me regret it.', 'As you wish. For now.',
    'Have it your way.', 'You win this one.', 'Take it, then, and go.', 'I yield. Today.', 'It seems I owe you.',
    'Very well. I will say it was my idea.', 'Yes. Quietly, though.', 'Consider it given.', 'You have my word. Such as it is.', 'Then we understand each other.',
    'I accept. Do not gloat.', 'So. It is settled.', 'Go on, then. Collect.', 'You always did get your way.', 'Enough. It is yours.',
    'Granted. Do not ask again.', 'Well played. Once.', 'I agree, and I will remember why.',
  ],
  fail: [
    'No. Not today, and not to you.', 'You overreach.', 'That was clumsy. Everyone saw.', 'Try that again and I will ruin you.', 'You thought I would bend? Look again.',
    'Go home before you embarrass yourself further.', 'Is that all you came with?', 'Not like this. Never like this.', 'You will have to do better than that.', 'I have heard better offers from fishwives.',
    'No.', 'Spare me.', 'Out. Now.', 'You misjudge me badly.', 'Save it for the Forum.',
    'That will cost you, later.', 'I decline. Politely, this once.', 'Nothing doing.', 'Ask someone stupider.', 'Not for all the grain in Sicily.',
    'You came to the wrong house.', 'Put your purse away.', 'I am not for sale today.', 'Try the next door down.', 'Never. Write it down.',
    'We are done here.', 'Another time. Perhaps never.', 'Your nerve is remarkable. Your sense is not.',
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
  trust: [['{from} decides to trust {to}.', '{from} takes what {to} says at face value.'], ['{from} will never trust {to} again.', '{from} stops believing a word {to} says.']],
};
