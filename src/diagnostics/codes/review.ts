import { defineDiagnostics } from '../catalog.js';

// The showrunner's room (issue 16): steering (AUR306x, planning) and the staged review (AUR61xx).
// Own file and ranges so other areas can grow without colliding.
defineDiagnostics([
  { code: 'AUR3061', severity: 'error', message: 'unknown {kind} "{id}" in {option}', hint: 'known: {known}' },
  { code: 'AUR3062', severity: 'error', message: 'bad {option} value "{value}": {detail}', hint: '{example}' },
  { code: 'AUR3063', severity: 'error', message: 'the season notes {file} are invalid: {detail}', hint: 'fix the file by hand or restore it with `git checkout -- {file}`' },
  { code: 'AUR3064', severity: 'error', message: 'no Director will read a note for {episode}: {reason}', hint: 'aim it at the next episode to compile, {next}: leave --episode out, or give --episode {next}' },
  { code: 'AUR6101', severity: 'error', message: 'no episode is staged for review', hint: 'stage one with `aureus episode run --review`' },
  { code: 'AUR6102', severity: 'error', message: '{episode} is staged for review in {run_dir}{changes}', hint: 'commit it with `aureus episode commit`, or drop it with `aureus episode discard`' },
  { code: 'AUR6103', severity: 'error', message: 'unknown scene {scene} in the staged episode {episode}', hint: 'scenes: {scenes}' },
  { code: 'AUR6104', severity: 'error', message: 'scene {scene} is pinned', hint: 'run `aureus scene unpin {scene}` first' },
  { code: 'AUR6105', severity: 'error', message: 'scene {scene} breaks a check: {code} {message}{where}', hint: '{fix}' },
  { code: 'AUR6106', severity: 'error', message: 'the staged file {file} was changed by hand and cannot be adopted', hint: 'change scenes with `aureus scene edit <SCxx> --from FILE`; `aureus episode review --restore` puts the staged original back (your version is kept in the run\'s hand-edits/ folder)' },
  { code: 'AUR6107', severity: 'info', message: 'adopted the hand edit of {scene} in the staged script as a human edit', hint: '' },
  { code: 'AUR6108', severity: 'warning', message: 'the world changed since {episode} was planned: every scene was verified again against the current world', hint: '' },
  { code: 'AUR6109', severity: 'error', message: 'bad --set "{value}": {detail}', hint: 'write --set <path>=<value>, e.g. --set characters.cato.status=exiled (docs/paths.md)' },
  { code: 'AUR6110', severity: 'error', message: 'the edit of {scene} cannot be read: {detail}', hint: 'give the scene text, or the three sections ---SCENE_TEXT---, ---CLAIMS---, ---SCENE_EVENTS---' },
  { code: 'AUR6111', severity: 'error', message: 'the staged file {file} {problem}: this cannot be adopted, nothing was changed and the episode stays staged', hint: 'put the file back as it was, or run `aureus episode review --restore` for the staged original (a changed file is kept in the run\'s hand-edits/ folder){more}' },
  { code: 'AUR6112', severity: 'error', message: '{file} names {run_dir} as the staged run folder, which is not a folder under .aureus/runs/: nothing was read or removed', hint: 'restore .aureus/review.json from the run (its run_dir is .aureus/runs/<sNNeNN>-…), or delete it and stage again with `aureus episode run --review`' },
  { code: 'AUR6113', severity: 'warning', message: 'ignored the damaged copy of the review record {file} ({detail}): the episode is staged again without the pins and rewrite counts it kept', hint: 'your edits are kept (the scenes checkpoint holds them); pin again with `aureus scene pin <SCxx>`' },
  { code: 'AUR6114', severity: 'error', message: 'the commit of {episode} was interrupted and its journal is in {run_dir}: discarding now would leave the world files half committed and nothing to finish or undo them; nothing was removed', hint: '`aureus episode commit` finishes that commit; then `aureus rollback {episode}` if you do not want the episode' },
  { code: 'AUR6115', severity: 'error', message: 'the episode {episode} staged for review cannot be read: its checkpoint {file} is damaged ({detail}); nothing was changed', hint: 'it holds the staged plan and scenes, with the edits and rewrites made under review, so it is not guessed at: put it back as it was if it was edited; or stage {episode} again with `{again}`, which ignores it (AUR6098) and does that step again (the edits and rewrites made under review are then lost); or drop the staged episode with `aureus episode discard`' },
  { code: 'AUR6116', severity: 'info', message: '{episode} was committed ({commit}, tag {tag}) but its review record was left behind (a kill stopped the commit after it was made): the record and what was left of {run_dir} are removed', hint: '' },
  { code: 'AUR6117', severity: 'info', message: '{episode} is already committed ({commit}, tag {tag}) through `episode commit`, and nothing is staged for review: there is nothing left to commit', hint: 'stage the next episode with `aureus episode run --review`' },
  { code: 'AUR6199', severity: 'error', message: '{file} cannot be read as the record of the episode under review: {detail}; nothing was changed and the file is kept as it is', hint: '{hint}' },
]);
