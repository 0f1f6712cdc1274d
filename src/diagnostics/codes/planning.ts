import { defineDiagnostics } from '../catalog.js';

// AUR3xxx — planning stages A-D (docs/planning.md).
defineDiagnostics([
  {
    code: 'AUR3001',
    severity: 'error',
    message: 'no feasible plan: rule "{rule}" could not be met ({detail})',
    hint: 'The world offers too few applicable moves for this rule. Add or loosen operators (operators/operators.json), revive characters, or reopen threads.',
  },
  {
    code: 'AUR3002',
    severity: 'error',
    message: 'no principal can act this episode (all are dead, exiled or imprisoned)',
    hint: 'At least one principal in world/characters.json needs status "alive".',
  },
  {
    code: 'AUR3003',
    severity: 'error',
    message: 'cannot read the previous cliffhanger: {detail}',
    hint: 'Fix or remove {file}; stage H writes it with `episode run`.',
  },
  {
    code: 'AUR3004',
    severity: 'warning',
    message: 'the previous cliffhanger names {what} "{id}", which no longer exists or cannot act; it is left out of the opening',
    hint: 'Nothing to do: the opening scene keeps the characters who can still appear.',
  },
  {
    code: 'AUR3005',
    severity: 'warning',
    message: 'proposal of {character} dropped: {reason}',
    hint: 'The model proposed an invalid move; a symbolic move replaced it.',
  },
  {
    code: 'AUR3006',
    severity: 'warning',
    message: 'director model plan rejected (attempt {attempt}): {reason}',
    hint: 'The model was re-asked with the errors; after the budget the symbolic plan is used.',
  },
  {
    code: 'AUR3007',
    severity: 'error',
    message: 'episode {episode} of season {season} is already committed',
    hint: 'Plan the next episode (omit --episode), or revert it and every later episode with `aureus rollback {id}`.',
  },
  {
    code: 'AUR3009',
    severity: 'error',
    message: 'cannot read the season goals: {detail}',
    hint: 'Fix {file} (`aureus validate` checks it against schemas/season_goals.schema.json), or remove it to plan with the default pacing.',
  },
]);
