import type { Setting } from '../../../domain/world.js';

/** Where a scene happens and who is about: openings, place details, objects, extras and how they enter. */

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
    'Mud. Shouting. A cart stuck fast. {atmo}',
    'Smoke from a cookshop. A dog barking. {atmo}',
    'Too many people. Not enough room. {atmo}',
    'D|Dust, sun, and a crowd that will not disperse. {atmo}',
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

/** How a minor character enters, indoors and out. */
export const ENTRANCES = ['{who} slips in.', '{who} appears at the door.', '{who} hurries in, out of breath.', '{who} waits to be noticed.', '{who} comes in with a lamp.', '{who} edges in.'];
export const ENTRANCES_OUTDOORS = ['{who} pushes through the crowd.', '{who} appears at an elbow.', '{who} comes running.', '{who} waits to be noticed.', '{who} steps out of a doorway.', '{who} whistles from across the way.'];

export const TIME_WORDS: Record<string, string> = {
  dawn: 'DAWN',
  morning: 'MORNING',
  day: 'DAY',
  afternoon: 'AFTERNOON',
  dusk: 'DUSK',
  night: 'NIGHT',
};

export const EXTRA_LINES = [
  'A message, for your eyes only.', 'They are waiting for you.', 'The litter is ready.', 'Someone left this at the gate.', 'There are men asking for you by name.',
  'The seal was broken when it reached me. I swear it.', 'Shall I send them away?', 'Your brother\'s man is outside. He will not give his name.', 'They say the consul has already heard.', 'It is done, as you asked.',
  'The water is hot, if you want it.', 'A boy brought this. He ran off.', 'The lamps need oil.', 'Your steward is asking for you.', 'Shall I bring more wine?',
  'A crowd is gathering outside.', 'The shutters, shall I close them?', 'There is a rider at the gate.', 'The cook wants to know about tonight.', 'Your guest has gone.',
  'I was told to wait for an answer.', 'The tablets you asked for.', 'It is raining again.', 'A freedman says he is owed money.', 'Nobody saw me come in.',
  'The dogs were barking all night.', 'They have doubled the watch.', 'Your cloak. It is cold out.',
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
