/** Closing button lines of a scene, and the cliffhangers an episode ends on. */

/** Closing button lines; {name} is the last mover, {target} the one moved against. */
export const HOOKS = [
  '{name} does not look back. Behind, {target} has already begun to plan.',
  'The door closes. Somewhere, a tally changes.',
  '> {CUE}: Tomorrow, then. And tomorrow I will not be alone.',
  '> {CUE}: Tell no one. Especially not your friends.',
  'N|Only the lamp sees {name} smile.',
  '{name} leaves {target} standing very still.',
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
