import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../src/domain/packet.js';
import { cleanup, cli } from '../pipeline/world.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

afterAll(cleanup);

const staged = stagedEpisode;

/** The first staged scene whose beat, planned to succeed, requires a change of this kind (a ledger transfer, a secret's holders). */
function sceneWith(s: Staged, change: (path: string, op: string) => boolean): string {
  const dir = path.join(s.run, 'checkpoints/planning/packets');
  for (const f of fs.readdirSync(dir).sort()) {
    const p = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as ScenePacket;
    const ok = p.director_instructions.sequence.some((a) => a.outcome === 'success' && p.constraints.required_deltas.some((d) => d.application_id === a.application_id && change(d.path, d.op)));
    if (ok) return p.scene_id;
  }
  throw new Error('no such scene in the staged episode');
}

/** The scene's section of the staged script. */
function section(script: string, id: string): string {
  const from = script.indexOf(`## ${id} `);
  const next = script.indexOf('\n## SC', from + 1);
  return script.slice(from, next < 0 ? undefined : next).trim();
}

/** The section's prose without every sentence that `cut` matches: a showrunner's deletion. */
function without(text: string, cut: RegExp): string {
  return text
    .split('\n')
    .map((l) => (l.startsWith('## ') || l.startsWith('**Cast') ? l : l.split(/(?<=[.!?])\s+/).filter((x) => !cut.test(x)).join(' ')))
    .join('\n');
}

/** `scene edit <id> --from` a file holding `text`. */
async function edit(s: Staged, id: string, text: string, name = id) {
  const file = path.join(path.dirname(s.root), `${name}.txt`);
  fs.writeFileSync(file, `${text}\n`);
  return { file, r: await cli(['scene', 'edit', id, '--from', file], s.root) };
}

/** Every sentence that names money or paying (prose/payment.ts reads these as a trace of the payment): the showrunner cuts them all. */
const MONEY = /denari|sesterc|talent|\bpa(?:y|ys|id|ying)\b|spen[dt]|brib|disburs|purse|ledger|count|coin|silver|gold|money|chest|strongbox|\bbox|\bbags?\b|sack|coffer|casket|bundle|pouch|thousand|hundred/i;

describe('a beat the events declare and the prose no longer shows (AUR5037)', () => {
  it('scene edit refuses a payment cut from the prose while the event still moves the money, and episode commit refuses it too', async () => {
    const s = await staged('beats-payment');
    const id = sceneWith(s, (p, op) => p === 'assets.cash_ledger' && op === 'transfer');
    const prose = section(fs.readFileSync(s.script, 'utf8'), id);
    // The scene as staged passes: the check does not fire on the offline Writer's payment.
    const kept = await edit(s, id, prose, `${id}-kept`);
    expect(kept.r.code, kept.r.stdout + kept.r.stderr).toBe(0);
    expect(kept.r.stdout).not.toContain('AUR5037');

    const cut = without(prose, MONEY);
    expect(cut).not.toMatch(MONEY);
    const { r } = await edit(s, id, cut);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stdout).toMatch(new RegExp(`hard AUR5037 beat b\\d+ \\([^)]+\\) is declared in event \\w+, but the prose never shows the payment of [\\d,]+ denarii from .+ to .+\\n`));
    expect(r.stdout).toMatch(/fix: Write the payment of [\d,]+ denarii .* into the scene, in action or dialogue \(/);

    const c = await cli(['episode', 'commit'], s.root);
    expect(c.code, c.stdout + c.stderr).toBe(4);
    expect(c.stderr).toMatch(new RegExp(`error AUR6105 scene ${id} breaks a check: AUR5037 beat b\\d+`));
  }, 240_000);
});
