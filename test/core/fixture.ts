import type { Character, Operator, World } from '../../src/domain/world.js';

/** A small, complete world built in code: four characters, three places, a ledger, two secrets, two threads. */
export function character(id: string, over: Partial<Character> = {}): Character {
  return {
    id,
    name: id[0]!.toUpperCase() + id.slice(1),
    cue: id.toUpperCase(),
    principal: true,
    faction: 'optimates',
    status: 'alive',
    location: 'rome_forum',
    stats: { wealth: 50, dignitas: 50, auctoritas: 50, gratia: 50, fama: 50, cunning: 50, courage: 50 },
    bdi: { beliefs: [], desires: [{ kind: 'power', text: 'rule', weight: 0.8 }], intentions: [] },
    voice: { register: 'patrician', tags: [] },
    description: '',
    ...over,
  };
}

/** Where and when: five places, the travel between them, three global metrics. */
function smallSetting(): World['world'] {
  return {
    format: 1,
    title: 'Test Republic',
    date: { year_bc: 63, month: 10, day: 21 },
    days_per_episode: 3,
    locations: [
      { id: 'rome_forum', name: 'Forum', setting: 'street', description: '' },
      { id: 'rome_senate', name: 'Curia', setting: 'senate', description: '' },
      { id: 'ostia', name: 'Ostia', setting: 'port', description: '' },
      { id: 'capua', name: 'Capua', setting: 'villa', description: '' },
      { id: 'island', name: 'Island', setting: 'temple', description: '' },
    ],
    travel: [
      { from: 'rome_forum', to: 'rome_senate', days: 0 },
      { from: 'rome_forum', to: 'ostia', days: 1 },
      { from: 'ostia', to: 'capua', days: 3 },
      { from: 'rome_senate', to: 'capua', days: 5 },
    ],
    global: {
      unrest: { value: 4, min: 0, max: 10, label: 'Unrest' },
      scandal_temp: { value: 3, min: 0, max: 10, label: 'Scandal' },
      grain_index: { value: 100, min: 0, max: 200, label: 'Grain' },
    },
  };
}

/** Who: two factions, five characters (one dead, one not a principal), three relationships. */
function smallPeople(): Pick<World, 'factions' | 'characters' | 'relationships'> {
  return {
    factions: {
      format: 1,
      factions: [
        { id: 'optimates', name: 'Optimates', description: '', objectives: [] },
        { id: 'populares', name: 'Populares', description: '', objectives: [] },
      ],
    },
    characters: {
      format: 1,
      characters: [
        character('crassus', { stats: { wealth: 95, dignitas: 60, auctoritas: 70, gratia: 40, fama: 55, cunning: 80, courage: 40 } }),
        character('cicero', { stats: { wealth: 8, dignitas: 70, auctoritas: 65, gratia: 60, fama: 80, cunning: 75, courage: 45 }, bdi: { beliefs: ['KNOWS:sec_debts'], desires: [{ kind: 'reputation', text: 'fame', weight: 0.9 }], intentions: ['TESTIFY'] } }),
        character('clodius', { faction: 'populares', location: 'ostia' }),
        character('sulla', { status: 'dead', location: 'capua' }),
        character('tiro', { principal: false, location: 'rome_senate' }),
      ],
    },
    relationships: {
      format: 1,
      relationships: [
        { from: 'cicero', to: 'crassus', weights: { loyalty: 0.1, fear: 0.4, debt: 0, affection: 0.1, rivalry: 0.6, trust: 0.2 }, flags: ['rival'] },
        { from: 'crassus', to: 'cicero', weights: { loyalty: 0.3, fear: 0.1, debt: 0.2, affection: 0, rivalry: 0.5, trust: 0.3 }, flags: [] },
        { from: 'tiro', to: 'cicero', weights: { loyalty: 0.9, fear: 0, debt: 0, affection: 0.8, rivalry: 0, trust: 0.9 }, flags: ['client'] },
      ],
    },
  };
}

/** What is at stake: a ledger, two secrets, two threads, a hard and a soft constraint. */
function smallStakes(): Pick<World, 'assets' | 'secrets' | 'threads' | 'constraints'> {
  return {
    assets: {
      format: 1,
      cash_ledger: [
        { id: 'crassus', owner: 'crassus', owner_kind: 'character', denarii: 100000 },
        { id: 'cicero', owner: 'cicero', owner_kind: 'character', denarii: 500 },
        { id: 'clodius', owner: 'clodius', owner_kind: 'character', denarii: 2000 },
        { id: 'aerarium', owner: 'senate', owner_kind: 'institution', denarii: 50000 },
      ],
      goods: [],
      contracts: [],
      networks: [],
    },
    secrets: {
      format: 1,
      secrets: [
        { id: 'sec_debts', text: 'Catiline owes Crassus', subject: 'crassus', holders: ['cicero'], legal_value: 0.8, public_damage: 0.6, half_life_episodes: 4, status: 'hidden' },
        { id: 'sec_old', text: 'an old affair', subject: 'clodius', holders: [], legal_value: 0.16, public_damage: 0.2, half_life_episodes: 1, status: 'rumored' },
      ],
    },
    threads: {
      format: 1,
      threads: [
        { id: 'thr_grain', question: 'Will Rome starve?', type: 'thriller', priority: 4, major: true, cadence: 2, status: 'open', progress: 0.2, stakeholders: ['crassus'], tags: ['grain'], last_progress_episode: 0 },
        { id: 'thr_love', question: 'Will they reconcile?', type: 'soap', priority: 2, major: false, cadence: 1, status: 'open', progress: 0.5, stakeholders: ['cicero'], tags: ['love'], last_progress_episode: 1 },
      ],
    },
    constraints: {
      format: 1,
      constraints: [
        { id: 'c_no_debt', kind: 'hard', expr: 'min_balance() >= 0', message: 'no negative balances' },
        { id: 'c_cicero_alive', kind: 'soft', expr: "char('cicero').status == 'alive'", message: 'Cicero should live through season 1' },
      ],
    },
  };
}

export function smallWorld(): World {
  return {
    world: smallSetting(),
    ...smallPeople(),
    ...smallStakes(),
    operators: { format: 1, operators: [witnessFlip()] },
    canon: { format: 1, facts: [] },
  };
}

export function witnessFlip(): Operator {
  return {
    id: 'op_witness_flip',
    name: 'Witness flip',
    type: 'thriller',
    beats: ['reversal'],
    roles: { actor: { kind: 'character' }, target: { kind: 'character' } },
    prereqs: [
      { expr: 'actor.wealth > target.wealth * 10' },
      { expr: "actor.status == 'alive' && target.status == 'alive'" },
    ],
    effects: [
      { path: 'target.bdi.intentions', op: 'subtract', value: 'TESTIFY' },
      { path: 'relationships.target.actor.debt', op: 'add', value: 0.3 },
      { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'target', amount: { expr: 'balance(actor) / 100' } },
      { path: 'world.global.scandal_temp', op: 'add', value: 1 },
    ],
    side_effect_risks: [{ text: 'Double-cross', prob: 0.2, effects: [{ path: 'actor.fama', op: 'subtract', value: 5 }] }],
    writer_guidance: { success_beat: 'actor buys target', fail_beat: 'target refuses', visual_cues: ['coins'] },
    settings: ['villa'],
    serves: ['power'],
    thread_tags: ['court'],
  };
}
