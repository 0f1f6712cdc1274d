import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Llm, LlmRequest } from '../../../src/ports/llm.js';
import { writeEpisodeScenes } from '../../../src/stages/scenes.js';
import { validators } from '../../../src/stages/f-verifier/schemas.js';
import { offlineLlm, starterEpisode } from './starter.js';

// Issue 13: the normalisations made while verifying travel into verifier_report.json. A writer that
// answers the way chat models do (a preamble, `### SCENE_TEXT` headings, ```json fences) goes
// through the real stages E-G: the episode passes, each attempt records what was read and why.

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** The offline writer's answers re-dressed in a chat model's form; every other call untouched. */
function chatty(inner: Llm): Llm {
  return {
    deterministic: inner.deterministic,
    providerId: inner.providerId,
    async complete(req: LlmRequest) {
      const res = await inner.complete(req);
      if (req.role !== 'writer') return res;
      const text = res.text
        .replace('---SCENE_TEXT---', 'Here is the scene, following the packet.\n\n### SCENE_TEXT')
        .replace(/---(CLAIMS|SCENE_EVENTS)---\n([\s\S]*?)(?=\n---SCENE_EVENTS---|$)/g, (_m, name: string, body: string) => `### ${name}\n\n\`\`\`json\n${body.trim()}\n\`\`\`\n`);
      return { ...res, text };
    },
  };
}

describe('normalisations on the record of an episode', () => {
  it('an episode answered in markdown headings and fences passes, and each attempt says what was read', async () => {
    const seed = '7';
    const ep = await starterEpisode(seed);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'aureus-norm-'));
    dirs.push(dir);
    const opts = { ...ep, budgets: { per_scene: 2, per_episode: 12 }, concurrency: 2, seed };
    const plain = await writeEpisodeScenes({ ...opts, llm: offlineLlm(seed, 0, 2) });
    const res = await writeEpisodeScenes({ ...opts, llm: chatty(offlineLlm(seed, 0, 2)), draftDir: dir });
    expect(res.ok).toBe(true);
    expect(res.report.budget.used).toBe(0);
    // The same scenes as the canonical answers: normalisation changed the form, not the story.
    expect(res.scenes.map((s) => [s.text, s.events, s.accepted_claims])).toEqual(plain.scenes.map((s) => [s.text, s.events, s.accepted_claims]));
    for (const s of res.report.scenes) {
      const a = s.attempts[0];
      expect(a.findings.filter((f) => f.severity === 'hard')).toEqual([]);
      expect(a.normalisations!.map((n) => n.code)).toEqual(expect.arrayContaining(['section_marker', 'preamble', 'json_fence']));
      // The raw draft on disk is the model's answer as written.
      expect(await readFile(path.join(dir, a.raw_file), 'utf8')).toContain('### SCENE_TEXT');
    }
    for (const s of plain.report.scenes) expect(s.attempts[0]).not.toHaveProperty('normalisations');
    expect(validators().report(res.report)).toBe(true);
    const onDisk = JSON.parse(await readFile(path.join(dir, 'verifier_report.json'), 'utf8'));
    expect(onDisk.scenes[0].attempts[0].normalisations[0].code).toBe('section_marker');
  });
});
