import type { World } from '../../src/domain/world.js';
import type { PeopleWorld } from '../../src/season/script-people.js';

/** What the people check (season/script-people.ts) reads of a world: its people, ties, places and secrets. */
export function peopleWorld(w: World): PeopleWorld {
  return {
    people: w.characters.characters,
    ties: w.relationships.relationships,
    places: w.world.locations,
    secrets: w.secrets.secrets,
  };
}
