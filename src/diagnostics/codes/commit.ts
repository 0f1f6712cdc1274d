import { defineDiagnostics } from '../catalog.js';

// AUR6xxx — commit, git, locks, resume, season workflow.
defineDiagnostics([
  { code: 'AUR6001', severity: 'error', message: 'uncommitted changes under the world files: {files}', hint: 'commit or discard them first{override}' },
  { code: 'AUR6002', severity: 'error', message: 'another aureus run holds the lock (pid {pid} on {host}, since {since})', hint: 'wait for it to finish; if it is gone, delete {lock}' },
  { code: 'AUR6003', severity: 'warning', message: 'removed a stale lock left by pid {pid} ({reason})', hint: '' },
  { code: 'AUR6004', severity: 'info', message: 'finished the interrupted commit of {episode} from its journal ({action})', hint: '' },
  { code: 'AUR6005', severity: 'error', message: 'not an episode id: "{value}"', hint: 'write it as s01e03 (season 1, episode 3)' },
  { code: 'AUR6006', severity: 'error', message: 'episode {episode} has not been committed (no tag {tag})', hint: 'run `aureus status` to see the committed episodes' },
  { code: 'AUR6007', severity: 'error', message: 'the episode failed verification: {detail}', hint: 'nothing was committed; fix the world or raise the budget, then re-run to resume' },
  { code: 'AUR6008', severity: 'error', message: 'interrupted during {where}', hint: 'nothing was committed; re-run the same command (or add --resume) to continue where it stopped' },
  { code: 'AUR6009', severity: 'error', message: 'episode {episode} is already committed', hint: 'use `aureus rollback {tag}` first, or `aureus branch` for a what-if season' },
  { code: 'AUR6010', severity: 'error', message: 'git {what} failed: {message}', hint: 'check the repository with `git status`' },
  { code: 'AUR6011', severity: 'error', message: '{root} is not a git repository', hint: 'create the world with `aureus init <dir>`, or run `git init` and commit the world first' },
  { code: 'AUR6012', severity: 'error', message: 'unknown episode or ref: "{ref}"', hint: 'use an episode tag (s01e02) or any git ref' },
  { code: 'AUR6013', severity: 'error', message: 'cannot create branch "{name}": {reason}', hint: 'pick another name' },
  { code: 'AUR6014', severity: 'error', message: 'episode {episode} is not in the history of the current branch', hint: 'switch to the branch that holds it first' },
  { code: 'AUR6015', severity: 'error', message: 'episode {episode} cannot be compiled: {reason}', hint: 'episodes are compiled in order; run `aureus status` to see the next one' },
  { code: 'AUR6016', severity: 'error', message: 'the approved deltas of {scene} could not be applied: {message}', hint: 'the scene passed verification but its deltas do not apply; report this with the run folder {run}' },
  { code: 'AUR6017', severity: 'error', message: 'unknown export format "{format}"', hint: 'use fountain, md or html' },
  { code: 'AUR6018', severity: 'error', message: 'the commit journal {file} is unreadable: {message}', hint: 'delete the run folder to abandon the interrupted commit (world files may need `git checkout`)' },
  { code: 'AUR6024', severity: 'error', message: 'not of the shape the html report reads: {expected} expected here', hint: 'the committed file was edited by hand' },
  { code: 'AUR6019', severity: 'error', message: 'the episode folder {dir} is missing {file}', hint: 'the episode was not committed by aureus, or was edited by hand' },
  { code: 'AUR6020', severity: 'error', message: 'a stage is missing: {stage}', hint: 'this build of aureus does not include {stage} yet' },
  { code: 'AUR6021', severity: 'error', message: 'episode {episode} was rolled back (tag {tag}); there is nothing to roll back', hint: 'compile it again with `aureus episode run`; `aureus status` lists the committed episodes' },
  { code: 'AUR6022', severity: 'error', message: 'no episode {episode} has been committed', hint: '`aureus status` lists the committed episodes and the next one to compile' },
  { code: 'AUR6023', severity: 'warning', message: 'the commit of {episodes} was interrupted and is not finished: this plan is of the world files as they stand now', hint: 'the next `aureus episode run` finishes that commit first; plan again after it' },
]);
