import { defineDiagnostics } from '../catalog.js';

// AUR79xx — `aureus import` (DPRR tables, synthetic worlds). A sub-range of AUR7xxx (CLI, config, import).
defineDiagnostics([
  {
    code: 'AUR7901',
    severity: 'error',
    message: 'cannot read the DPRR table {table}: {reason}',
    hint: 'Point --data at the folder holding dprr_persons.csv, dprr_post_assertions.csv and dprr_relationship_assertions.csv.',
  },
  {
    code: 'AUR7902',
    severity: 'error',
    message: 'malformed CSV: {reason}',
    hint: 'The DPRR tables are RFC 4180 CSV with a header row; restore the file from the DPRR dump.',
  },
  {
    code: 'AUR7903',
    severity: 'error',
    message: 'bad value for {option}: {value} ({reason})',
    hint: 'Years are integers, negative for BC: --from -100 --to -44.',
  },
  {
    code: 'AUR7904',
    severity: 'error',
    message: 'the target {dir} already exists and is not an empty directory',
    hint: 'Import into a new or empty directory; an import never overwrites a world.',
  },
  {
    code: 'AUR7905',
    severity: 'error',
    message: 'no DPRR person is active between {from} and {to}',
    hint: 'Widen the year range.',
  },
  {
    code: 'AUR7906',
    severity: 'error',
    message: 'the starter kit file {file} is missing or unreadable: {reason}',
    hint: 'The import copies operators, style, locations and threads from the aureus package; reinstall it.',
  },
  {
    code: 'AUR7907',
    severity: 'error',
    message: 'a DPRR row is unusable: {reason}',
    hint: 'The row is skipped only if it is not needed; restore the table from the DPRR dump.',
  },
  {
    code: 'AUR7908',
    severity: 'error',
    message: 'the DPRR data folder {dir} does not exist or is not a folder',
    hint: 'The tables ship in the repository under data/dprr (see data/README.md); restore that folder, or point --data at a folder holding the three dprr_*.csv tables.',
  },
  {
    code: 'AUR7909',
    severity: 'error',
    message: 'interrupted: the import into {dir} stopped and its partial repository was removed',
    hint: 'Nothing was written; run the same command again.',
  },
  {
    code: 'AUR7910',
    severity: 'error',
    message: 'the target {dir} is inside the {folder}/ folder of the world repository {root}',
    hint: 'A world there would be untracked files of that world (its next episode run refuses them, exit 8); put the new world in a folder beside it.',
  },
  {
    code: 'AUR7911',
    severity: 'error',
    message: 'too few principals: {count} alive {among}, and the starter kit\'s constraint {constraint} needs at least {min}',
    hint: 'Raise --limit to {min} or more, or widen the window with an earlier --from.',
  },
]);
