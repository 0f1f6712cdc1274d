import { defineDiagnostics } from '../catalog.js';

// Hardening (issue 12): the atomic commit, locks, hostile files and paths, hard constraints.
// Sub-ranges: AUR105x world files, AUR207x hard constraints, AUR605x commit and lock, AUR705x CLI usage.
defineDiagnostics([
  {
    code: 'AUR6050',
    severity: 'error',
    message: 'the commit would write through the symbolic link {path}',
    hint: 'Aureus never writes through a link (git cannot commit beyond one); replace the link with the real folder or file, then re-run to resume.',
  },
  {
    code: 'AUR6051',
    severity: 'error',
    message: 'cannot commit over {path}: {reason}',
    hint: 'The path must be a regular file or absent; fix it, then re-run to resume.',
  },
  {
    code: 'AUR6052',
    severity: 'info',
    message: 'the commit of {episode} failed and was rolled back: world/ and git are as they were{detail}',
    hint: 'Fix the cause above, then re-run the same command: the run resumes from its checkpoints and commits.',
  },
  {
    code: 'AUR6053',
    severity: 'warning',
    message: 'removed {count} temporary file(s) left by an interrupted write: {files}',
    hint: '',
  },
  {
    code: 'AUR6057',
    severity: 'error',
    message: 'the interrupted commit of {episode} cannot be finished: {files} changed since it was cut off (neither as it was before nor as the commit writes it)',
    hint: 'Nothing was changed, your edits are kept. To finish the commit, put them aside (`git stash`), run again, then `git stash pop`; to abandon it instead, delete {run} (the files it wrote stay as uncommitted changes: keep yours, `git checkout` the rest).',
  },
  {
    code: 'AUR6058',
    severity: 'error',
    message: 'the interrupted commit of {episode} cannot be finished: HEAD moved from {before} to {now} since it was cut off',
    hint: 'Nothing was changed. Its episode was computed on {before}: committing it now would undo the later commits. Abandon it: delete {run} (the files it wrote, if any, stay as uncommitted changes: `git checkout` those that are not yours), then `aureus episode run` compiles the episode again on the world as it now is.',
  },
  {
    code: 'AUR6059',
    severity: 'error',
    message: '{what} is in progress in this repository (.git/{marker}): {blocked}',
    hint: 'Finish or abort it first ({finish}), then re-run; nothing was written.',
  },
  {
    code: 'AUR6060',
    severity: 'error',
    message: 'git ignores {files}, which the episode commit must add',
    hint: 'A .gitignore rule (or .git/info/exclude) matches it; remove that rule, then re-run (`git check-ignore -v <file>` names the rule).',
  },
  {
    code: 'AUR1053',
    severity: 'error',
    message: 'cannot write {file}: {reason}',
    hint: 'check that this user may write the world folder and its .aureus/, and that the file system is writable and not full',
  },
  {
    code: 'AUR1054',
    severity: 'error',
    message: 'too many open files: cannot open {what}: {reason}',
    hint: 'raise the limit of open files (`ulimit -n`), then re-run',
  },
  {
    code: 'AUR6055',
    severity: 'error',
    message: 'cannot use {path} for the run lock: {reason}',
    hint: '.aureus/ is Aureus\'s private folder in the world repository (git-ignored); if something else took its name, move it away and re-run.',
  },
  {
    code: 'AUR6056',
    severity: 'error',
    message: 'the stale lock {path} cannot be removed: {reason}',
    hint: 'No aureus process holds it; remove .aureus/lock (and .aureus/lock.json) by hand, then re-run.',
  },
  {
    code: 'AUR6062',
    severity: 'error',
    message: 'the lock {path} is held, but its owner record {owner} is missing or unreadable: no process can be named',
    hint: 'a run may be taking it this instant: re-run in a moment. Left by a crash, it is taken over once not refreshed for {minutes} minutes; if no aureus process is running here, remove {path} by hand.',
  },
  {
    code: 'AUR6063',
    severity: 'warning',
    message: 'removed a stale lock {path} with no owner record ({reason})',
    hint: '',
  },
  {
    code: 'AUR6064',
    severity: 'error',
    message: 'tag {tag} was made on another commit ({other}, on {branches}) while this run committed {episode}: a run in another worktree of this repository made the same episode meanwhile (tags are shared by every worktree)',
    hint: 'Run episodes in one worktree at a time. {episode} is committed at {other}; to make it again here, roll it back in the worktree that made it (`aureus rollback {episode}` there: it takes the plain id), or start a what-if season here with `aureus branch <name>`.',
  },
  {
    code: 'AUR2070',
    severity: 'error',
    message: 'the changes of {episode} break the hard constraint {id}; nothing was committed',
    hint: 'The Director plans around hard constraints, so a changed world/constraints.json or a hand-edited run is the likely cause; re-plan (delete the run folder) or fix the constraint.',
  },
  {
    code: 'AUR1050',
    severity: 'error',
    message: '{file} is a symbolic link that leaves the repository (it resolves to {target})',
    hint: 'World files must live inside the world repository: copy the file in instead of linking to it. Aureus never reads or writes through such a link.',
  },
  {
    code: 'AUR7050',
    severity: 'error',
    message: 'season {season} has no season goals ({file} is missing); seasons with goals: {known}',
    hint: 'Pick an existing season, or start the new season by writing its season_goals.json first (copy the previous season\'s and edit it).',
  },
  {
    code: 'AUR1051',
    severity: 'error',
    message: 'a string of {length} characters is longer than the {max} a world file allows',
    hint: 'Names, ids and descriptions are short prose; a value this long is a paste or generation accident. Shorten it.',
  },
  {
    code: 'AUR1055',
    severity: 'error',
    message: 'the {field} holds {chars}: a control or invisible character, which terminals obey and the episode script would keep',
    hint: 'Ids, names, titles, labels and cues are one line of visible text: delete the character (in JSON it is often written \\u001b or \\u200b). A description may hold line breaks.',
  },
  {
    code: 'AUR1052',
    severity: 'error',
    message: '{link} is a symbolic link; an episode commit writing {file} would have to write through it',
    hint: 'Aureus never writes through a link (git cannot commit beyond one): replace {link} with the real file or folder it points to, commit, then re-run.',
  },
]);
