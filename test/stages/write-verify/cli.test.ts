import { mkdtemp, rm, writeFile, mkdir, copyFile, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { captureIo, FIX } from './helpers.js';
import { useTempDirs } from '../../support/git-repo.js';

const io = captureIo;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aureus-sv-'));
  await mkdir(path.join(dir, 'world'));
  await mkdir(path.join(dir, 'style'));
  // A world repository around the packet: travel matrix and lexicon come from it.
  await copyFile(path.join(FIX, 'world_travel.json'), path.join(dir, 'world', 'world.json'));
  await writeFile(path.join(dir, 'style', 'lexicon.md'), '# Lexicon\n\n| forbidden | replacement | note |\n| --- | --- | --- |\n| okay | very well; so be it | modern |\n| minute | moment | modern |\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const args = (scene: string, ...more: string[]) => ['scene', 'verify', '--packet', path.join(FIX, 'packet_villa.json'), '--scene', path.join(FIX, scene), ...more];

describe('aureus scene verify', () => {
  it('exits 0 on a clean scene', async () => {
    const x = io(dir);
    expect(await main(args('clean.txt'), x)).toBe(0);
    expect(x.out).toContain('SC04: PASS (0 hard, 0 soft findings; claims: 2 accepted, 0 downgraded, 0 rejected)');
  });

  it('exits 4 with quoted spans and fixes on a failing scene', async () => {
    const x = io(dir);
    expect(await main(args('dead_speaks.txt'), x)).toBe(4);
    const line = x.out.split('\n')[0];
    // line:column at the dead speaker's name (span.at), after the quote's "> ", as the review commands place it.
    expect(line).toMatch(/dead_speaks\.txt:\d+:3: hard AUR5010 Lucius Sergius Catilina is dead but speaks$/);
    expect(x.out).toContain('  > > CATILINA: You thought you were rid of me?');
    expect(x.out).toContain('  fix: Remove every line spoken by Lucius Sergius Catilina');
    expect(x.out).toContain('SC04: FAIL');
  });

  it('places a repaired JSON slip at its line:column of the file, never at a character offset (AUR5003)', async () => {
    // The second event's closing brace with a stray comma after it: the slip is the "]" on the next line.
    const raw = (await readFile(path.join(FIX, 'clean.txt'), 'utf8')).replace('"text":"Cicero fumbles the snub"}', '"text":"Cicero fumbles the snub"},');
    const file = path.join(dir, 'slip.txt');
    await writeFile(file, raw);
    const line = raw.split('\n').lastIndexOf(']') + 1;
    const x = io(dir);
    expect(await main(['scene', 'verify', '--packet', path.join(FIX, 'packet_villa.json'), '--scene', file], x)).toBe(0);
    expect(x.out.split('\n')).toContain(`${file}:${line}:1: soft AUR5003 the SCENE_EVENTS JSON needed repair (unexpected "]", expected a value (a trailing comma?))`);
    expect(x.out).not.toMatch(/position \d/);
    const j = io(dir);
    expect(await main(['scene', 'verify', '--packet', path.join(FIX, 'packet_villa.json'), '--scene', file, '--json'], j)).toBe(0);
    expect(JSON.parse(j.out).findings[0].span).toEqual({ line, text: ']', at: 0 });
  });

  it('shows how a real answer was read (issue 13), and --json gives the normalisations and form_errors', async () => {
    const corpus = path.resolve(FIX, '..', 'writer-corpus');
    const corpusArgs = (file: string, ...more: string[]) => ['scene', 'verify', '--packet', path.join(corpus, 'packets', 'SC05.json'), '--scene', path.join(corpus, file), ...more];
    const x = io(dir);
    expect(await main(corpusArgs('w20_sc05_markdown_claims_none.txt'), x)).toBe(0);
    expect(x.out).toMatch(/^read: removed the ```markdown fence around the whole answer \(lines 1 and \d+\) \(outer_fence: /m);
    expect(x.out).toMatch(/^read: read the CLAIMS section "None" as \[\]/m);
    const j = io(dir);
    expect(await main(corpusArgs('w20_sc05_markdown_claims_none.txt', '--json'), j)).toBe(0);
    const r = JSON.parse(j.out);
    expect(r.form_errors).toEqual([]);
    expect(r.normalisations.map((n: { code: string }) => n.code)).toEqual(expect.arrayContaining(['outer_fence', 'section_marker', 'empty_section']));
    const t = io(dir);
    expect(await main(['scene', 'verify', '--packet', path.join(corpus, 'packets', 'SC15.json'), '--scene', path.join(corpus, 'w34_sc15_events_as_table.txt'), '--json'], t)).toBe(4);
    expect(JSON.parse(t.out).form_errors).toEqual(['the SCENE_EVENTS section is not JSON: no JSON array or object found']);
  });

  it('uses the world lexicon (plurals included) and prints --json', async () => {
    const x = io(dir);
    expect(await main(['-C', dir, ...args('anachronism.txt', '--json')], x)).toBe(4);
    const r = JSON.parse(x.out);
    expect(r.verdict).toBe('FAIL');
    expect(r.findings.map((f: { message: string }) => f.message)).toEqual(['anachronism "Okay"', 'anachronism "minutes"']);
    expect(r.findings[0].fix).toBe('Replace "Okay" with "very well" or "so be it".');
  });

  it('uses the world travel matrix for teleportation', async () => {
    const x = io(dir);
    expect(await main(['-C', dir, ...args('speaker_not_in_cast.txt', '--json')], x)).toBe(4);
    // "Clodius steps out from behind a column." also puts him on stage in the narration (AUR5016).
    expect(JSON.parse(x.out).findings.map((f: { code: string }) => f.code)).toEqual(['AUR5012', 'AUR5014', 'AUR5016']);
  });

  it("names the world's locations for a cast member's arrival from too far away (AUR5017); with time enough, or without the world, none", async () => {
    // Ostia is a day from this villa: Crassus comes with 0 days since his last scene, Cicero with 1.
    const clean = await readFile(path.join(FIX, 'clean.txt'), 'utf8');
    const verify = async (who: string, root: string) => {
      const scene = path.join(dir, 'arrived.txt');
      await writeFile(scene, clean.replace('A cup set down too hard.', `A cup set down too hard.\n${who} has ridden up from Ostia through the night.`));
      const x = io(root);
      await main(['-C', root, 'scene', 'verify', '--packet', path.join(FIX, 'packet_villa.json'), '--scene', scene, '--json'], x);
      return JSON.parse(x.out).findings.map((f: { code: string; message: string }) => `${f.code} ${f.message}`);
    };
    expect(await verify('Crassus', dir)).toEqual(['AUR5017 Marcus Crassus is in this scene at Villa of Crassus but the prose places them at Ostia']);
    expect(await verify('Cicero', dir)).toEqual([]);
    const noWorld = path.join(dir, 'no-world');
    await mkdir(noWorld, { recursive: true });
    expect(await verify('Crassus', noWorld)).toEqual([]);
  });

  it("reads the plan's prerequisite checks beside a run folder's packets", async () => {
    const run = path.join(dir, 'run');
    await mkdir(path.join(run, 'packets'), { recursive: true });
    await copyFile(path.join(FIX, 'packet_villa.json'), path.join(run, 'packets', 'SC04.json'));
    const plan = { beats: [{ applications: [{ id: 'a04', prereqs: [{ expr: 'balance(actor) >= 5000', holds: false }] }] }] };
    await writeFile(path.join(run, 'episode_plan.json'), JSON.stringify(plan));
    const x = io(dir);
    expect(await main(['scene', 'verify', '--packet', 'run/packets/SC04.json', '--scene', path.join(FIX, 'clean.txt'), '--json'], x)).toBe(4);
    expect(JSON.parse(x.out).findings.map((f: { code: string }) => f.code)).toEqual(['AUR5030']);
  });

  it('passes with soft findings only (exit 0)', async () => {
    const x = io(dir);
    expect(await main(args('no_hook.txt', '--json'), x)).toBe(0);
    const r = JSON.parse(x.out);
    expect(r.verdict).toBe('PASS');
    expect(r.findings.map((f: { code: string; severity: string }) => [f.code, f.severity])).toEqual([['AUR5060', 'soft']]);
  });

  it('reports unreadable files (2) and bad packets (3) as diagnostics', async () => {
    const x = io(dir);
    expect(await main(['scene', 'verify', '--packet', path.join(FIX, 'packet_villa.json'), '--scene', path.join(dir, 'nope.txt')], x)).toBe(2);
    expect(x.err).toContain('AUR5080');
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, '{"format": 1}');
    const y = io(dir);
    expect(await main(['scene', 'verify', '--packet', bad, '--scene', path.join(FIX, 'clean.txt')], y)).toBe(3);
    expect(y.err).toContain('AUR5081');
    const z = io(dir);
    expect(await main(['scene', 'verify', '--packet', bad], z)).toBe(2);
  });

  it('refuses a scene that is not UTF-8 (exit 3) with the file and the line:column of the first bad byte, not a U+FFFD checked as prose', async () => {
    // The clean scene with "VILLA" saved as Latin-1 "VILLÉ" (one byte 0xC9), and one more bad byte at its end.
    const bytes = Buffer.from((await readFile(path.join(FIX, 'clean.txt'), 'utf8')).replace('INT. VILLA', 'INT. VILL\u0000') + '\u0000\n');
    const at = bytes.indexOf(0);
    bytes[at] = 0xc9;
    bytes[bytes.length - 2] = 0xff;
    const bad = path.join(dir, 'latin1.txt');
    await writeFile(bad, bytes);
    const x = io(dir);
    expect(await main(['scene', 'verify', '--packet', path.join(FIX, 'packet_villa.json'), '--scene', bad], x)).toBe(3);
    expect(x.out).toBe('');
    // Line 2 is "## SC04 — INT. VILL…": the bad byte is its 20th character.
    expect(x.err).toContain(`${bad}\n  2:20: error AUR1003 file is not valid UTF-8 (first bad byte at offset ${at})`);
    expect(x.err).toMatch(/hint: re-save the file as UTF-8/);
    const j = io(dir);
    expect(await main(['scene', 'verify', '--packet', path.join(FIX, 'packet_villa.json'), '--scene', bad, '--json'], j)).toBe(3);
    expect(JSON.parse(j.out)).toEqual({ error: { message: `the scene ${bad} is not UTF-8`, exit_code: 3, codes: ['AUR1003'] } });
  });

  it('has --help with an example', async () => {
    const x = io(dir);
    expect(await main(['scene', 'verify', '--help'], x)).toBe(0);
    expect(x.out).toContain('$ aureus scene verify --packet');
  });
});

describe('aureus scene verify outside a world', () => {
  let bare = '';
  beforeAll(async () => {
    bare = await mkdtemp(path.join(os.tmpdir(), 'aureus-sv-bare-'));
  });
  afterAll(async () => {
    await rm(bare, { recursive: true, force: true });
  });

  it("falls back to the package's lexicon and says so (an anachronism still fails, exit 4)", async () => {
    const x = io(bare);
    expect(await main(args('anachronism.txt'), x)).toBe(4);
    expect(x.out).toMatch(/hard AUR5050 anachronism "Okay"/);
    expect(x.out).toMatch(/^lexicon: .*style[/\\]lexicon\.md \(\d+ entries; aureus's default, no style\/lexicon\.md in /m);
    const j = io(bare);
    expect(await main(args('anachronism.txt', '--json'), j)).toBe(4);
    const r = JSON.parse(j.out);
    expect(r.findings.map((f: { code: string }) => f.code)).toContain('AUR5050');
    expect(r.lexicon.source).toBe('package');
  });

  it("reports the world's lexicon inside a world", async () => {
    const x = io(dir);
    expect(await main(args('anachronism.txt'), x)).toBe(4);
    expect(x.out).toContain(`lexicon: ${path.join(dir, 'style', 'lexicon.md')} (2 entries; the world's)`);
  });
});

// A lexicon or context file that cannot be read must not quietly turn a check off.
describe('aureus scene verify: bad lexicons and unreadable context', () => {
  const tempDir = useTempDirs('sv-lex');
  let d = '';
  beforeAll(() => void (d = tempDir()));
  const lexArgs = (file: string, ...more: string[]) => [...args('anachronism.txt', '--lexicon', file), ...more];

  it('reads a JSON lexicon, "word" for "forbidden" included', async () => {
    await writeFile(path.join(d, 'good.json'), JSON.stringify([{ forbidden: 'okay', replacement: 'very well' }, { word: 'minute', replacement: 'moment' }]));
    const x = io(d);
    expect(await main(lexArgs('good.json', '--json'), x)).toBe(4);
    const r = JSON.parse(x.out);
    expect(r.lexicon).toMatchObject({ source: 'option', entries: 2 });
    expect(r.findings.map((f: { message: string }) => f.message)).toEqual(['anachronism "Okay"', 'anachronism "minutes"']);
  });

  /** Verifies with `--lexicon <name>` holding `text`: the exit code must be 3 and nothing on stdout; gives stderr. */
  const refused = async (name: string, text: string | Buffer): Promise<string> => {
    await writeFile(path.join(d, name), text);
    const x = io(d);
    expect(await main(lexArgs(name), x)).toBe(3);
    expect(x.out).toBe('');
    return x.err;
  };

  it('refuses a .json lexicon with a syntax error at line:col (exit 3), instead of reading it as markdown with no entries', async () => {
    const err = await refused('syntax.json', '[\n  {"forbidden": "okay",\n]\n');
    expect(err).toMatch(/AUR5082 lexicon .*syntax\.json cannot be used: 1 problem/);
    expect(err).toMatch(/3:1: error AUR1005 invalid JSON/);
  });

  it('refuses a JSON lexicon of the wrong shape, naming each bad entry', async () => {
    expect(await refused('object.json', '{"entries": [{"forbidden": "okay"}]}')).toContain('AUR5083 lexicon file is object, not an array of entries');
    const err = await refused('entries.json', '[\n  {"forbidden": "okay", "replacement": "very well"},\n  "minute",\n  {"replacement": "moment"},\n  {"forbidden": "phone", "replacement": 3}\n]\n');
    expect(err).toContain('3 problems (listed below)');
    expect(err).toMatch(/3:3 \/1: error AUR5083 lexicon entry \/1 is not an object/);
    expect(err).toMatch(/4:3 \/2: error AUR5083 lexicon entry \/2 has no "forbidden" word/);
    expect(err).toMatch(/5:3 \/3: error AUR5083 lexicon entry \/3 has a "replacement" that is not a string/);
  });

  it('refuses a markdown lexicon with no table or bad rows (AUR18xx listed), instead of 0 entries', async () => {
    expect(await refused('notable.md', '# My words\n\nokay -> very well\n')).toContain('AUR1801');
    const err = await refused('rows.md', '| forbidden | replacement | note |\n| --- | --- | --- |\n| okay | very well | |\n| minute | | modern |\n');
    expect(err).toMatch(/4:1: error AUR1803 lexicon row has an empty replacement cell/);
  });

  it('refuses a lexicon with a byte that is not UTF-8, markdown as JSON (AUR1003 at its line:column), instead of a mangled word', async () => {
    // "okay" with its "a" saved as Latin-1 "æ" (one byte 0xE6), on line 3 of each.
    const latin1 = (before: string, after: string) => Buffer.concat([Buffer.from(before), Buffer.from([0xe6]), Buffer.from(after)]);
    const md = latin1('| forbidden | replacement | note |\n| --- | --- | --- |\n| ok', 'y | very well | |\n| minute | moment | |\n');
    const json = latin1('[\n  {"forbidden": "minute", "replacement": "moment"},\n  {"forbidden": "ok', 'y", "replacement": "very well"}\n]\n');
    for (const [name, bytes, column] of [['latin1.md', md, 5], ['latin1.json', json, 20]] as const) {
      const err = await refused(name, bytes);
      const file = path.join(d, name);
      expect(err).toContain(`${file}\n  error AUR5082 lexicon ${file} cannot be used: 1 problem (listed below)`);
      expect(err).toContain(`\n  3:${column}: error AUR1003 file is not valid UTF-8 (first bad byte at offset ${bytes.indexOf(0xe6)})`);
      const j = io(d);
      expect(await main(lexArgs(name, '--json'), j)).toBe(3);
      expect(JSON.parse(j.out)).toEqual({ error: { message: 'invalid lexicon', exit_code: 3, codes: ['AUR5082', 'AUR1003'] } });
    }
  });

  it('warns (AUR5084) when the world around the packet or the plan beside it cannot be read, and still verifies', async () => {
    const w = path.join(d, 'world-repo');
    await mkdir(path.join(w, 'world'), { recursive: true });
    await mkdir(path.join(w, 'run', 'packets'), { recursive: true });
    await writeFile(path.join(w, 'world', 'characters.json'), '{"format": 1, "characters": [\n  {"id": "catilina",\n');
    await writeFile(path.join(w, 'world', 'world.json'), '{"format": 1, "locations": []}');
    await writeFile(path.join(w, 'run', 'episode_plan.json'), '{"beats": {}}');
    await copyFile(path.join(FIX, 'packet_villa.json'), path.join(w, 'run', 'packets', 'SC04.json'));
    const sv = ['scene', 'verify', '--packet', 'run/packets/SC04.json', '--scene', path.join(FIX, 'clean.txt')];
    const x = io(w);
    expect(await main(sv, x)).toBe(0);
    expect(x.out).toContain('SC04: PASS');
    expect(x.err).toMatch(/characters\.json\n  2:20: warning AUR5084 cannot be read \(invalid JSON: unexpected ","\), so the world's characters' check was skipped/);
    expect(x.err).toMatch(/world\.json\n  warning AUR5084 cannot be read \(expected an object with a "locations" array and a "travel" array\), so the travel-time check was skipped/);
    expect(x.err).toMatch(/episode_plan\.json\n  warning AUR5084 cannot be read \(expected an episode plan with a "beats" array\), so the prerequisites' check was skipped/);
    const j = io(w);
    expect(await main([...sv, '--json'], j)).toBe(0);
    expect(JSON.parse(j.out).warnings.map((v: { code: string }) => v.code)).toEqual(['AUR5084', 'AUR5084', 'AUR5084']);
  });
});
