import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Fountain } from 'fountain-js';
import { cleanup, cli } from '../pipeline/world.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

afterAll(cleanup);

const staged = stagedEpisode;

/** The Writer's SCENE_TEXT of the scene's first draft: what an author starts an edit from. */
function draftText(run: string, id: string): string {
  const raw = fs.readFileSync(path.join(run, 'drafts', `${id}.1.txt`), 'utf8');
  return raw.split('---SCENE_TEXT---')[1]!.split('---CLAIMS---')[0]!.trim();
}

/** `scene edit <id> --from` a file holding `text`. */
async function edit(s: Staged, id: string, text: string) {
  const file = path.join(path.dirname(s.root), `${id}-${path.basename(s.root)}.txt`);
  fs.writeFileSync(file, `${text}\n`);
  return cli(['scene', 'edit', id, '--from', file], s.root);
}

/** The text a reader of fountain-js's HTML sees: tags and notes gone. */
function fountainReads(src: string): string {
  return new Fountain().parse(src, true).html.script.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

/**
 * An author's lines are never dropped in silence (was: `parseSceneText` dropped every line starting
 * INT./EXT., `#` or `---` anywhere in a scene, and replaced an author's heading with the packet's).
 */
describe('scene edit keeps the author lines a script could mistake for headings', () => {
  it('keeps INT./EXT. lines as action and the changed heading, in the script and every export', async () => {
    const s = await staged('edit-sluglines');
    const text = draftText(s.run, 'SC03')
      .replace(/^## SC03 — .*$/m, '## SC03 — HOUSE OF SERVILIA')
      .replace(/^Cato decides to trust Servilia\./m, 'INT. THE TABLINUM, Cato hesitates.')
      .replace(/^In the baths, the talk turns to other things\./m, 'EXT. steps groan as a slave runs out.');
    expect(text).toContain('TABLINUM');
    expect(text).toContain('EXT. steps groan');
    const r = await edit(s, 'SC03', text);
    expect(r.code, r.stdout + r.stderr).toBe(0);

    const script = fs.readFileSync(s.script, 'utf8');
    expect(script).toContain('## SC03 — HOUSE OF SERVILIA\n');
    expect(script).toMatch(/ INT\. THE TABLINUM, Cato hesitates\. EXT\. steps groan as a slave runs out\./);

    const c = await cli(['episode', 'commit'], s.root);
    expect(c.code, c.stderr).toBe(0);
    for (const format of ['md', 'html', 'fountain']) {
      const e = await cli(['export', 's01e01', '--format', format], s.root);
      expect(e.code, e.stderr).toBe(0);
      expect(e.stdout, format).toContain('INT. THE TABLINUM, Cato hesitates.');
      expect(e.stdout, format).toContain('EXT. steps groan as a slave runs out.');
      expect(e.stdout, format).toContain('HOUSE OF SERVILIA');
    }
    const fountain = (await cli(['export', 's01e01', '--format', 'fountain'], s.root)).stdout;
    const tokens = new Fountain().parse(fountain, true).tokens as { type: string; text?: string; scene_number?: string }[];
    // The heading the author wrote is SC03's heading; the slugline-like lines stay inside action.
    expect(tokens.find((t) => t.type === 'scene_heading' && t.scene_number === 'SC03')?.text).toBe('HOUSE OF SERVILIA');
    expect(tokens.filter((t) => t.type === 'scene_heading' && /TABLINUM|steps groan/.test(t.text ?? ''))).toEqual([]);
    expect(fountainReads(fountain)).toContain('INT. THE TABLINUM, Cato hesitates. EXT. steps groan as a slave runs out.');
  }, 240_000);

  it('keeps a line that opens a paragraph with INT. as forced action, and a # line as text', async () => {
    const s = await staged('edit-slug-paragraph');
    const text = `${draftText(s.run, 'SC03')}\n\nINT. THE TABLINUM. Cato counts the coins twice.\n\n# not a heading, a line the author wrote\n`;
    const r = await edit(s, 'SC03', text);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const script = fs.readFileSync(s.script, 'utf8');
    expect(script).toContain('\nINT. THE TABLINUM. Cato counts the coins twice.\n');
    // Markdown's own escape, so the script reads back as one scene, not a heading.
    expect(script).toContain('\n\\# not a heading, a line the author wrote\n');
    expect((await cli(['episode', 'commit'], s.root)).code).toBe(0);
    const fountain = (await cli(['export', 's01e01', '--format', 'fountain'], s.root)).stdout;
    expect(fountain).toContain('\n!INT. THE TABLINUM. Cato counts the coins twice.\n');
    const tokens = new Fountain().parse(fountain, true).tokens as { type: string; text?: string }[];
    expect(tokens.filter((t) => t.type === 'action' && /^!?INT\. THE TABLINUM/.test(t.text ?? ''))).toHaveLength(1);
    expect(fountainReads(fountain)).toContain('# not a heading, a line the author wrote');
    const html = (await cli(['export', 's01e01', '--format', 'html'], s.root)).stdout;
    expect(html).toContain('<p class="action"># not a heading, a line the author wrote</p>');
  }, 240_000);
});

/**
 * A cue after `>` in any case is its speaker's (was: `> cato:` was not a cue, so Cato's line became
 * narration showing a literal "> cato:", and the verifier's cast and dead-speaker checks never saw it).
 */
describe('scene edit reads a cue in any case', () => {
  it('writes > cato: and > Servilia: as CATO and SERVILIA speaking, in the script and the exports', async () => {
    const s = await staged('edit-lower-cue');
    const text = draftText(s.run, 'SC03').replace(/^> CATO: Very well/m, '> cato: Very well').replace(/^> SERVILIA: Remember/m, '> Servilia: Remember');
    expect(text).toContain('> cato: Very well');
    expect(text).toContain('> Servilia: Remember');
    const r = await edit(s, 'SC03', text);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const script = fs.readFileSync(s.script, 'utf8');
    expect(script).toMatch(/\n> CATO: Very well\. On your head\.\n/);
    expect(script).toMatch(/\n> SERVILIA: Remember this day\./);
    expect(script).not.toMatch(/> cato|> Servilia/);
    expect((await cli(['episode', 'commit'], s.root)).code).toBe(0);
    const fountain = (await cli(['export', 's01e01', '--format', 'fountain'], s.root)).stdout;
    expect(fountain).not.toMatch(/> cato|> Servilia/);
    const tokens = new Fountain().parse(fountain, true).tokens as { type: string; text?: string }[];
    const at = tokens.findIndex((t) => t.type === 'dialogue' && t.text === 'Very well. On your head.');
    expect(at).toBeGreaterThan(0);
    expect(tokens[at - 1]).toMatchObject({ type: 'character', text: 'CATO' });
  }, 240_000);

  it('checks a lower-case cue as the speaker it names: one not in the cast is a hard AUR5012 (exit 4)', async () => {
    const s = await staged('edit-lower-cue-cast');
    const text = draftText(s.run, 'SC03').replace(/^> CATO: Very well/m, '> crassus: Very well');
    const r = await edit(s, 'SC03', text);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stdout + r.stderr).toMatch(/AUR5012 .*speaks but is not in the scene cast/);
  }, 240_000);
});
