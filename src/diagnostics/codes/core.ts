import { defineDiagnostics } from '../catalog.js';

// AUR2xxx — expressions, deltas, invariants (the symbolic core).
//   AUR200x-201x  expressions (parse, type-check, evaluation)
//   AUR202x-203x  deltas (paths, values, ledger)
//   AUR205x-206x  invariants and constraints
defineDiagnostics([
  // ---- expressions ----
  { code: 'AUR2001', severity: 'error', message: 'expression syntax error: {reason}', hint: 'See docs/expressions.md for the grammar; strings use quotes, e.g. actor.status == \'alive\'.' },
  { code: 'AUR2002', severity: 'error', message: 'unsupported expression syntax: {what}', hint: 'Expressions allow literals, names, .field access, function calls, ! - * / % + - comparisons, in, && and || (docs/expressions.md).' },
  { code: 'AUR2003', severity: 'error', message: "unknown name '{name}'", hint: 'Names in scope: world and the roles of the operator ({known}).' },
  { code: 'AUR2004', severity: 'error', message: "unknown field '{field}' on {type}", hint: 'Known fields of {type}: {known}.' },
  { code: 'AUR2005', severity: 'error', message: "unknown function '{name}'", hint: 'Functions: {known}.' },
  { code: 'AUR2006', severity: 'error', message: '{name}() expects {expected} argument(s), got {got}', hint: 'See the function table in docs/expressions.md.' },
  { code: 'AUR2007', severity: 'error', message: 'type error: {detail}', hint: 'Compare numbers with numbers and strings with strings; && || ! take booleans; in takes a list on its right.' },
  { code: 'AUR2008', severity: 'error', message: "no {kind} with id '{id}'", hint: 'Check the id against the world files (ids are lower-case [a-z0-9_]).' },
  { code: 'AUR2009', severity: 'error', message: 'arithmetic error: {detail}', hint: 'Results must be finite numbers (no division by zero, no overflow).' },
  { code: 'AUR2010', severity: 'error', message: 'expression too large: {detail}', hint: 'Expressions are limited to {limit}; split the condition into several prerequisites.' },
  { code: 'AUR2011', severity: 'error', message: 'expression must be a boolean, but it is {type}', hint: 'Prerequisites and constraints are conditions, e.g. actor.wealth > 50.' },
  { code: 'AUR2012', severity: 'error', message: "no route between '{from}' and '{to}'", hint: 'Add a travel edge in world/world.json, or avoid travel_days() for unconnected places.' },

  // ---- deltas ----
  { code: 'AUR2020', severity: 'error', message: "unknown delta path '{path}'", hint: 'Valid paths are listed in docs/paths.md, e.g. world.global.unrest, characters.<id>.stats.wealth, secrets.<id>.status.' },
  { code: 'AUR2021', severity: 'error', message: "op '{op}' is not allowed on {path}", hint: 'Allowed ops here: {allowed}.' },
  { code: 'AUR2022', severity: 'error', message: 'bad value for {path}: {detail}', hint: 'See the value column of docs/paths.md.' },
  { code: 'AUR2023', severity: 'error', message: "no {kind} '{id}' (in delta path {path})", hint: 'Deltas may only change entities that exist in the world files.' },
  { code: 'AUR2024', severity: 'error', message: "role '{role}' is not bound (in {where})", hint: 'Bind every role the operator uses; roles: {known}.' },
  { code: 'AUR2025', severity: 'error', message: "transfer of {amount} denarii from '{from}' overdraws the account (balance {balance})", hint: 'A transfer may move at most the current balance; the whole batch was rejected.' },
  { code: 'AUR2026', severity: 'error', message: "burning {amount} denarii from '{account}' would make it negative (balance {balance})", hint: 'Ledger balances never go below zero; the whole batch was rejected.' },
  { code: 'AUR2027', severity: 'error', message: 'cannot evaluate the {field} expression of effect {path}: {detail}', hint: 'Fix the expression; it is evaluated on the state at the moment the operator applies.' },
  { code: 'AUR2028', severity: 'error', message: 'effect value {value} does not fit {field} ({path}): {rule}', hint: '{fix}; the value must be one {target} accepts (docs/paths.md).' },

  // ---- invariants ----
  { code: 'AUR2050', severity: 'error', message: "ledger account '{account}' has an invalid balance {balance}", hint: 'Balances are whole, non-negative denarii.' },
  { code: 'AUR2051', severity: 'error', message: 'the ledger total changed from {before} to {after}, but mints and burns account for {expected}', hint: 'Only add/subtract on assets.cash_ledger.<account> (mint/burn) may change the total; transfers conserve it.' },
  { code: 'AUR2052', severity: 'error', message: "'{who}' is {status} and cannot act", hint: 'Dead (or absent) characters may be mentioned but never act or speak; pick a living character.' },
  { code: 'AUR2053', severity: 'error', message: "'{who}' cannot reach {to} from {from} in {days} day(s) (the journey takes {need})", hint: 'Give the character time to travel, or set the scene where they are.' },
  { code: 'AUR2054', severity: 'error', message: 'prerequisite of {operator} does not hold: {expr}', hint: 'An operator applies only when all its prerequisites hold on the state before it.' },
  { code: 'AUR2055', severity: 'error', message: 'prerequisite of {operator} cannot be evaluated: {expr} ({detail})', hint: 'Fix the expression or the bindings; an unevaluable prerequisite counts as not holding.' },
  { code: 'AUR2056', severity: 'error', message: "constraint '{id}' is violated: {message}", hint: 'Hard constraints in world/constraints.json must hold in every state.' },
  { code: 'AUR2057', severity: 'error', message: "constraint '{id}' cannot be evaluated: {detail}", hint: 'Fix the expression in world/constraints.json.' },
  { code: 'AUR2058', severity: 'warning', message: "soft constraint '{id}' does not hold: {message}", hint: 'Soft constraints are quality goals; the plan may still proceed.' },
  { code: 'AUR2059', severity: 'error', message: "'{who}' is not a known character", hint: 'Characters must exist in world/characters.json.' },
]);
