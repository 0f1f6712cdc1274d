/**
 * How git shows a world repository. An episode commit is ~31k lines, 24k of them scene packets:
 * the run artifacts are marked generated (`-diff`: "Binary files differ" instead of pages of JSON;
 * `linguist-generated`: collapsed in GitHub reviews and left out of language statistics), while
 * the script, recap and cliffhanger stay readable. World files get the `aureus-json` diff driver,
 * whose hunk headers name the world file's list a hunk lies in (its top-level key), so
 * `git diff s01e01 s01e02 -- world/assets.json` reads "@@ … @@   "cash_ledger": [".
 *
 * Not the entity: git takes the header from the nearest matching line ABOVE the hunk's first
 * (context) line, and the canonical writer sorts keys, so an element's `"id"` comes after
 * `denarii`, `bdi`, `cue`… — an `"id"` pattern named the previous element (Caesar over a change to
 * Crassus' denarii). No funcname pattern can look ahead to the element's own id; a list's opening
 * line is always above every hunk inside it.
 *
 * `.gitattributes` travels with the repository; the driver's pattern lives in .git/config, which
 * git never clones: `aureus init`, `aureus import` and every episode commit set it (idempotent).
 */
export const WORLD_GITATTRIBUTES = `# Written by aureus (its README: "Reading it in git"). Run artifacts are generated: no line diffs, collapsed on GitHub.
seasons/*/episode_*/packets/** -diff linguist-generated
seasons/*/episode_*/drafts/** -diff linguist-generated
seasons/*/episode_*/run_log.jsonl -diff linguist-generated
seasons/*/episode_*/episode_context.json -diff linguist-generated
seasons/*/episode_*/agent_proposals.json -diff linguist-generated
seasons/*/episode_*/verifier_report.json -diff linguist-generated
seasons/*/episode_*/episode_deltas.json -diff linguist-generated
seasons/*/episode_*/episode_metrics.json -diff linguist-generated
seasons/*/episode_*/episode_plan.json linguist-generated
# World and operator files: hunk headers name the list a change is in (top-level keys).
world/*.json diff=aureus-json
operators/*.json diff=aureus-json
`;

/** The diff driver's git config: the hunk header is the nearest top-level key (2-space indent) opening a list or object. */
export const ENTITY_DIFF_CONFIG: ReadonlyArray<[string, string]> = [['diff.aureus-json.xfuncname', '^  "[^"]+": [[{]']];
