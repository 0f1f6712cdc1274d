import { defineDiagnostics } from '../catalog.js';

// AUR1xxx — world files: reading, JSON, schema, references.
// 100x: reading and parsing; 101x: schema; 102x-103x: references and world rules; 104x: how a file is stored.
defineDiagnostics([
  // Reading and parsing (shared by every JSON input through store/read.ts readJsonFileSafe).
  { code: 'AUR1000', severity: 'error', message: 'not a world repository: {root} has no world/ folder', hint: 'create one with `aureus init <dir>`, or point -C at a world repository' },
  { code: 'AUR1001', severity: 'error', message: 'missing file {file}', hint: 'every world repository needs this file; `aureus init` creates a complete one to copy from' },
  { code: 'AUR1002', severity: 'error', message: 'file is {size} bytes, over the {limit}-byte limit', hint: 'world files are hand-edited data; split or trim it (nothing this large is read, to protect memory), or raise the cap knowingly for every command: AUREUS_MAX_FILE_BYTES=<bytes>' },
  { code: 'AUR1003', severity: 'error', message: 'file is not valid UTF-8 (first bad byte at offset {offset})', hint: 're-save the file as UTF-8 (most editors: "Save with encoding")' },
  { code: 'AUR1004', severity: 'error', message: 'file is empty', hint: 'a world file holds a JSON object with at least "format": 1; `aureus init` creates complete ones' },
  { code: 'AUR1005', severity: 'error', message: 'invalid JSON: {detail}', hint: 'fix the syntax at this line and column (a trailing comma or a missing quote is the usual cause)' },
  { code: 'AUR1006', severity: 'error', message: 'forbidden key "{key}"', hint: '"__proto__", "constructor" and "prototype" are never valid keys: they could alter object prototypes; rename or remove it' },
  { code: 'AUR1007', severity: 'error', message: 'incompatible format: the file has format {found}, this aureus supports format {supported}', hint: 'convert the file to format {supported}, or use the aureus version that wrote it' },
  { code: 'AUR1008', severity: 'error', message: 'cannot read {file}: {reason}', hint: 'check that it is a regular, readable file' },
  { code: 'AUR1009', severity: 'error', message: 'duplicate key "{key}" in the same object', hint: 'JSON parsers silently keep only the last one; keep one' },
  // Schema (schemas/*.schema.json, compiled once with ajv, all errors).
  { code: 'AUR1010', severity: 'error', message: 'unknown key "{key}"', hint: '{suggestion}allowed keys here: {allowed}' },
  { code: 'AUR1011', severity: 'error', message: 'wrong type: expected {expected}, got {got}', hint: 'change the value to {expected}' },
  { code: 'AUR1012', severity: 'error', message: 'missing required key "{key}"', hint: 'add "{key}" here (see {schema})' },
  { code: 'AUR1013', severity: 'error', message: 'value {value} is out of range: must be {comparison} {limit}', hint: 'the declared range is in {schema}' },
  { code: 'AUR1014', severity: 'error', message: 'value {value} is not allowed here', hint: '{suggestion}allowed: {allowed}' },
  { code: 'AUR1015', severity: 'error', message: 'value {value} does not match the pattern {pattern}', hint: 'see {schema} for the expected form' },
  { code: 'AUR1016', severity: 'error', message: 'schema violation: {detail}', hint: 'see {schema}' },
  // References and world rules (checked once every file is schema-valid).
  { code: 'AUR1020', severity: 'error', message: 'duplicate {kind} id "{id}" (first at {first})', hint: 'ids must be unique within their collection; rename one' },
  { code: 'AUR1021', severity: 'error', message: 'id "{id}" is not path-safe: ids may contain only a-z, 0-9 and _', hint: '{why}' },
  { code: 'AUR1022', severity: 'error', message: '{what} "{id}" does not exist', hint: '{suggestion}known {kind} ids: {known}' },
  { code: 'AUR1023', severity: 'error', message: 'ledger account "{id}" has a negative balance ({denarii} denarii)', hint: 'balances are whole denarii, never negative; debts belong in relationships (debt) or contracts' },
  { code: 'AUR1024', severity: 'error', message: 'dead character "{id}" holds intentions: {intentions}', hint: 'the dead do not act; empty bdi.intentions or change the status' },
  { code: 'AUR1025', severity: 'error', message: 'metric "{metric}" has value {value} outside its declared range {min}..{max}', hint: 'move the value inside the range or widen the range' },
  { code: 'AUR1026', severity: 'error', message: 'metric "{metric}" declares min {min} above max {max}', hint: 'swap min and max' },
  { code: 'AUR1027', severity: 'error', message: 'operator "{operator}": {problem}', hint: '{fix}' },
  { code: 'AUR1028', severity: 'error', message: 'ledger account "{id}" is owned by {kind} "{owner}", which does not exist', hint: '{suggestion}known {kind} ids: {known}' },
  { code: 'AUR1029', severity: 'error', message: 'travel edge {from} → {to} is a loop', hint: 'travel edges join two different locations; same-place moves take 0 days without an edge' },
  { code: 'AUR1030', severity: 'error', message: 'relationship {from} → {to} points at itself', hint: 'relationships are between two different characters' },
  { code: 'AUR1031', severity: 'error', message: 'season goals file declares season {found} but lives in {dir}', hint: 'set "season" to {expected} or move the file' },
  { code: 'AUR1032', severity: 'error', message: 'ledger account "{id}" belongs to {kind} "{owner}" but is not named after it', hint: 'a {kind}\'s account uses the {kind}\'s id (transfers name accounts by role): rename the account to "{owner}"' },
  { code: 'AUR1034', severity: 'error', message: 'anchor "{id}": day {day} of month {month}, {year} BC is not a day of the world\'s calendar', hint: 'up to 46 BC the Republican calendar has 29-day months except Martius, Maius, Quinctilis and October (31) and Februarius (28); see src/core/roman-date.ts' },
  { code: 'AUR1033', severity: 'error', message: '{kind} id "{id}" is reserved', hint: 'ids become keys of the engine\'s objects and "{id}" names a member every JavaScript object has ({reserved} are all reserved): choose another id, e.g. "{id}_1"' },
  // How a file is stored (104x): warnings, the file reads fine.
  { code: 'AUR1040', severity: 'warning', message: '{file} has {found}: aureus writes LF line endings and no byte-order mark', hint: 'the next episode commit that changes it rewrites the whole file, so its git diff shows every line changed: convert it first, in a commit of its own (the editor\'s line-ending and encoding setting does both; for the line endings alone, add "{file} text eol=lf" to .gitattributes and run `git add --renormalize .`)' },
  { code: 'AUR1041', severity: 'warning', message: '{file} cannot be written back as it is laid out: an episode commit that changes it rewrites line {line} and lines like it', hint: '{fix}' },
]);

// AUR18xx — the style files: style/style_guide.md and style/lexicon.md (src/style/).
defineDiagnostics([
  { code: 'AUR1801', severity: 'error', message: 'no lexicon table found: expected a markdown table with the header "forbidden | replacement | note"', hint: 'add a table whose header row is exactly | forbidden | replacement | note | followed by | --- | --- | --- |' },
  { code: 'AUR1802', severity: 'error', message: 'lexicon row has {count} cells; expected 3 (forbidden | replacement | note)', hint: 'write each row as | word | Roman replacement | note |; escape a literal pipe as \\|' },
  { code: 'AUR1803', severity: 'error', message: 'lexicon row has an empty {column} cell', hint: 'every forbidden word needs its Roman replacement; the note may be empty' },
  { code: 'AUR1804', severity: 'error', message: 'forbidden word "{word}" is listed twice (first at line {first})', hint: 'keep one row per forbidden word' },
  { code: 'AUR1805', severity: 'error', message: 'lexicon table header row is not followed by a separator row', hint: 'put | --- | --- | --- | right under the header row' },
  { code: 'AUR1806', severity: 'error', message: 'forbidden entry "{word}" must start and end with a letter or digit', hint: 'list plain words or phrases; matching is whole-word and case-insensitive' },
  { code: 'AUR1807', severity: 'error', message: 'style file {file} is missing', hint: 'restore it from the starter kit (aureus init copies style/)' },
  { code: 'AUR1808', severity: 'error', message: 'style file {file} is not valid UTF-8 (first bad byte at offset {offset})', hint: 'save the file as UTF-8' },
  { code: 'AUR1809', severity: 'error', message: 'style file {file} is empty', hint: 'restore it from the starter kit' },
  { code: 'AUR1810', severity: 'error', message: 'style file {file} is larger than {max} bytes', hint: 'style files are prompts; keep them short' },
  { code: 'AUR1811', severity: 'error', message: 'forbidden entry "{word}" is too long: {size} (at most {maxWords} words and {maxChars} characters)', hint: 'list a word or a short phrase (matching is whole-word and case-insensitive); a longer passage is no anachronism to replace' },
  { code: 'AUR1812', severity: 'error', message: 'the lexicon has more than {max} entries', hint: 'the anachronism scan matches every entry at once; keep the lexicon to the words writers actually reach for' },
]);
