import { defineDiagnostics } from '../catalog.js';

// Play sessions' logs (.aureus/sessions/<id>/turns.jsonl, src/play/records.ts): AUR62xx, a sub-range
// of AUR6xxx (commit, locks, resume). A bad line itself gets the world files' JSON and schema codes
// (AUR1005, AUR1011, …) with its line:column; these say what it means for the session.
defineDiagnostics([
  {
    code: 'AUR6201',
    severity: 'error',
    message: 'session {id} cannot be read: {detail}',
    hint: 'turns.jsonl is written by aureus and only ever appended to: restore it (e.g. from a backup), fix the line(s) named here by hand, or remove .aureus/sessions/{id} to drop the session',
  },
  {
    code: 'AUR6202',
    severity: 'error',
    message: 'no start record: the file is empty',
    hint: 'the session was created but nothing was written to it (stopped before its first turn?); remove .aureus/sessions/{id} and start the scene again',
  },
  {
    code: 'AUR6203',
    severity: 'error',
    message: 'the first record is a "{type}" record, not the session\'s "start" record',
    hint: 'a session log begins with {"type":"start","session":…,"seed":…,"setup":…}; lines before it were added by hand or the start line was lost',
  },
  {
    code: 'AUR6204',
    severity: 'warning',
    message: 'session {id} is listed as unreadable: {problem}',
    hint: '`aureus session show {id}` lists every problem of its log',
  },
  {
    code: 'AUR6205',
    severity: 'error',
    message: 'session {session} cannot resume: tag {tag} exists, but {why}',
    hint: 'the session log and the history disagree about canonization {n} (a tag left from elsewhere, or a history rolled back past it): `git show {tag}` says what it is; once it is deleted (`git tag -d {tag}`), resuming judges the pending proposals again',
  },
  {
    code: 'AUR6206',
    severity: 'error',
    message: 'session {id} is being played by another process (pid {pid} on {host}, since {since})',
    hint: 'one process plays a session at a time: wait for that one to end or pause (its /end, the end of its input, Ctrl-C), then `aureus play --resume {id}`; a holder that was killed is noticed and its lock ({lock}) taken over',
  },
  {
    code: 'AUR6207',
    severity: 'error',
    message: 'the start record names session {named}, but the log is in the folder of session {id}',
    hint: 'a session folder copied or renamed by hand: its records, lock and canonization tags (play/{named}/<n>) are session {named}\'s. Move it back to .aureus/sessions/{named}, or remove .aureus/sessions/{id}; a copy cannot go on as a session of its own (start a new one with `aureus play`)',
  },
  {
    code: 'AUR6208',
    severity: 'error',
    message: 'the pinned scene packet is {packet}\'s, not the session\'s scene {scene}',
    hint: 'the packet a session pins at its start was changed by hand: restore the log from a backup, or remove the session\'s folder to drop it',
  },
  {
    code: 'AUR6209',
    severity: 'error',
    message: 'the session\'s {what} "{id}" is not in {file}',
    hint: 'it was removed from the world (or renamed) since the session started, or the log was edited: the session cannot go on without it. `aureus session show {session}` reads the session; to resume it, bring "{id}" back into {file} (`git log -p -- {file}` shows it) and commit',
  },
]);

// The arguments of `play`, `session` and `query` (src/play/): AUR71xx, a sub-range of AUR7xxx (CLI
// usage). Each is a usage error (exit 2) found before a turn is played or anything is written.
defineDiagnostics([
  { code: 'AUR7101', severity: 'error', message: '{option} {id}: no such {kind} in {file}', hint: '{kind} ids: {known}' },
  { code: 'AUR7102', severity: 'error', message: '{option} {id}: {name} is {status} and cannot be played', hint: 'play a living character: {known}' },
  { code: 'AUR7103', severity: 'error', message: '--with names no one besides {as}, the character you play', hint: 'name at least one other living character, e.g. --as {as} --at {at} --with {other}' },
  { code: 'AUR7104', severity: 'error', message: 'scene {scene} not found in any planned or committed episode', hint: 'plan one with `aureus episode plan`, or play an improvised scene with --at <location> --with <ids>' },
  { code: 'AUR7105', severity: 'error', message: 'unknown query "{kind}"', hint: 'one of: character <id>, knows <secret>, debts [id], history <path>' },
  { code: 'AUR7106', severity: 'error', message: 'session id "{id}" is not valid: expected lower-case letters, digits, - and _ (at most 64, not starting with - or _)', hint: '{fix}' },
  { code: 'AUR7107', severity: 'error', message: 'session {id} already exists', hint: 'resume it with `aureus play --resume {id}`, or name a new one with --session' },
  { code: 'AUR7108', severity: 'error', message: 'no session {id}', hint: 'list the sessions with `aureus session list`' },
  { code: 'AUR7109', severity: 'error', message: '--as {as}: {name} is not in the cast of {scene} ({cast})', hint: 'play one of its cast (e.g. --as {example} --scene {scene}), or improvise a scene with --at <location> --with <ids>' },
  { code: 'AUR7110', severity: 'error', message: 'query history {path}: no {kind} "{id}" in {file}, and no commit ever gave this path a value', hint: '{suggestion}{kind} ids: {known}' },
]);
