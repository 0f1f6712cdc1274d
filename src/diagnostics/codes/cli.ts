import { defineDiagnostics } from '../catalog.js';

// AUR7xxx — CLI usage, config, import.
// AUR700x: `aureus init`, `aureus validate` and the AUREUS_* environment (other areas use their own sub-ranges, e.g. AUR79xx import).
defineDiagnostics([
  { code: 'AUR7001', severity: 'error', message: 'cannot create a world in {dir}: the directory is not empty ({entries})', hint: 'pick a new or empty directory; aureus init never overwrites existing files' },
  { code: 'AUR7002', severity: 'error', message: 'cannot create a world at {dir}: it exists and is not a directory', hint: 'pick a path that does not exist yet, or an empty directory' },
  { code: 'AUR7003', severity: 'error', message: 'the starter kit is incomplete: {missing} not found in {kit}', hint: 'reinstall aureus (npm install) so its world/, operators/, style/, seasons/ and schemas/ are present' },
  { code: 'AUR7004', severity: 'error', message: 'cannot create a world at {dir}: {reason}', hint: 'check the path and its permissions; nothing was left behind' },
  { code: 'AUR7005', severity: 'error', message: 'cannot write {file}: {reason}', hint: 'pass -o a path in an existing, writable directory (or omit -o to print to stdout)' },
  { code: 'AUR7006', severity: 'error', message: 'cannot use {dir} as the world directory (-C): {reason}', hint: 'pass -C the world repository directory' },
  { code: 'AUR7007', severity: 'warning', message: 'the environment variable {name}={value} is not {expected}: {effect}', hint: 'unset it for the default, or set it to {expected}' },
  { code: 'AUR7008', severity: 'error', message: 'interrupted: {dir} was not created, and nothing of it was left behind', hint: 'run the same command again' },
  // One line for the diagnostics of a file beyond the first 50 (diagnostics/cap.ts); its severity is the worst of theirs.
  { code: 'AUR7009', severity: 'error', message: '… and {count} more {problems}{where}', hint: '{breakdown} not listed: only the first {max} problems of a file are; fix those and run `aureus validate` again for the rest' },
]);

// AUR701x: the options and arguments of any command, checked before it touches anything (exit 2).
defineDiagnostics([
  { code: 'AUR7010', severity: 'error', message: '{option} {value}: expected {expected}', hint: '{example}' },
  { code: 'AUR7011', severity: 'error', message: '{command} needs {needed}', hint: '{example}' },
  { code: 'AUR7012', severity: 'error', message: '{option} cannot be used with {other}: {reason}', hint: '{fix}' },
]);
