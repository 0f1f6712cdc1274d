import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineRealizerFor, registerOfflineRealizer, type OfflineRealizer } from '../../src/providers/offline/index.js';
import type { LlmRole } from '../../src/ports/llm.js';
import { cleanup, cli, git, makeWorld } from './world.js';

/**
 * Model-written text reaches committed files (canon.json, the cast's beliefs, the script, the plan,
 * the recap, the commit message) without control characters, terminal escapes or bidi overrides:
 * `aureus episode run` on a real temp git repository, the offline answers re-dressed the way a
 * chat model writes them (preamble, markdown headings, a ```json fence) and salted with a NUL, an
 * ESC colour sequence, U+202E and a C1 character. The run is not refused for it; each removal is
 * a soft diagnostic.
 */
const BAD = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const SALT = '\u0000\u001b[31m\u202e\u0085';
let root = '';
let warnings: { code: string; message: string }[] = [];
const restore: (() => void)[] = [];

/** The role's own offline realizer, its answer changed by `f`. */
async function salted(role: LlmRole, f: (a: { text: string; json?: unknown }) => { text: string; json?: unknown }): Promise<void> {
  const inner: OfflineRealizer = await offlineRealizerFor(role);
  restore.push(registerOfflineRealizer(role, async (req, ctx) => f(await inner(req, ctx))));
}

/** A writer answer as a chat model writes it, every claim text and the scene's first line salted. */
function chatty(text: string): string {
  const [scene, rest] = text.split('---CLAIMS---');
  const [claims, events] = rest!.split('---SCENE_EVENTS---');
  const list = (JSON.parse(claims!) as { text: string }[]).map((c) => ({ ...c, text: c.text.replace(' ', ` ${SALT}`) }));
  const prose = scene!.replace('---SCENE_TEXT---', '').replace(/\S/, (ch) => `\u202e${ch}`);
  return `Here is the scene\u0000 you asked for.\n\n### SCENE_TEXT\n${prose}\n### CLAIMS\n\n\`\`\`json\n${JSON.stringify(list, null, 2)}\n\`\`\`\n\n### SCENE_EVENTS\n${events}`;
}

beforeAll(async () => {
  await salted('writer', (a) => ({ ...a, text: chatty(a.text) }));
  await salted('recap', (a) => ({ ...a, text: a.text.replace(' ', ` ${SALT}`) }));
  await salted('director', (a) => {
    const edit = structuredClone(a.json) as { title: string; scenes: { purpose: string }[] };
    edit.title = `${edit.title}\u2066\u009b`;
    edit.scenes[0]!.purpose = `\u202e${edit.scenes[0]!.purpose}`;
    return { text: '', json: edit };
  });
  await salted('critic', (a) => {
    const v = structuredClone(a.json) as { warnings?: string[] };
    v.warnings = [...(v.warnings ?? []), `The tone${SALT} drifts`];
    return { text: JSON.stringify(v), json: v };
  });
  await salted('proposals', (a) => {
    const answer = structuredClone(a.json) as { moves: { rationale: string }[] };
    for (const m of answer.moves) m.rationale = `\u2067${m.rationale}\u0007`;
    return { text: '', json: answer };
  });
  root = await makeWorld('control-chars');
  const r = await cli(['episode', 'run', '--json'], root);
  if (r.code !== 0) throw new Error(`episode run failed (${r.code}): ${r.stderr}`);
  warnings = (JSON.parse(r.stdout) as { warnings: typeof warnings }).warnings;
}, 300_000);
afterAll(() => {
  for (const f of restore.splice(0)) f();
  cleanup();
});

const show = (rel: string) => git(root, 'show', `HEAD:${rel}`);

describe('model-written text committed by episode run', () => {
  it('reaches canon.json and the cast beliefs without control or bidi characters', () => {
    const facts = (JSON.parse(show('world/canon.json')) as { facts: { episode: string; text: string }[] }).facts.filter((f) => f.episode === 's01e01');
    expect(facts.length).toBeGreaterThan(0);
    for (const f of facts) expect(f.text).not.toMatch(BAD);
    expect(show('world/canon.json')).not.toMatch(BAD);
    expect(show('world/canon.json')).not.toContain('\\u');
    expect(show('world/characters.json')).not.toMatch(BAD);
    expect(show('world/characters.json')).not.toContain('[31m');
  });

  it('keeps the episode script, plan, report, recap and commit message clean', () => {
    for (const rel of ['episode_script.md', 'episode_plan.json', 'agent_proposals.json', 'verifier_report.json', 'recap.md', 'episode_deltas.json']) {
      const text = show(`seasons/season_01/episode_01/${rel}`);
      expect(text, rel).not.toMatch(BAD);
      // Nor in JSON's escaped form (`\u001b`); a diagnostic that names one (`\\u001b` in JSON) is text.
      expect(text, rel).not.toMatch(/(?<!\\)\\u00(?:0[0-8bcef]|1[0-9a-f]|[89][0-9a-f])|(?<!\\)\\u20(?:2[a-e]|6[6-9])/);
    }
    expect(git(root, 'log', '-1', '--format=%B')).not.toMatch(BAD);
  });

  it('records each removal as a soft diagnostic, and the run is not refused for it', () => {
    const report = JSON.parse(show('seasons/season_01/episode_01/verifier_report.json')) as { scenes: { final_verdict: string; attempts: { findings: { code: string; severity: string; message: string }[] }[] }[] };
    const soft = report.scenes.flatMap((s) => s.attempts.flatMap((a) => a.findings)).filter((f) => f.code === 'AUR5007');
    expect(soft.length).toBeGreaterThan(0);
    expect(soft.every((f) => f.severity === 'soft')).toBe(true);
    expect(soft.map((f) => f.message)).toContain('CLAIMS/0/text carried control or bidi characters (\\u0000 \\u001b \\u202e \\u0085): removed before the scene was judged and committed');
    expect(soft.some((f) => f.message.startsWith('SCENE_TEXT carried control or bidi characters (\\u202e)'))).toBe(true);
    // The critic's: a soft finding beside its verdict (which stays PASS).
    const critic = report.scenes.flatMap((s) => s.attempts.flatMap((a) => a.findings)).filter((f) => f.code === 'AUR4211');
    expect(critic.length).toBe(report.scenes.flatMap((s) => s.attempts).length);
    expect(critic[0]).toMatchObject({ severity: 'soft', message: "the critic answer's /warnings/0 carried control or bidi characters (\\u0000 \\u001b \\u202e \\u0085): removed before it was committed" });
    expect(report.scenes.every((s) => s.final_verdict === 'PASS')).toBe(true);
    // The proposals', the director's and the recap's answers: warnings of the run (in its --json summary).
    const proposals = warnings.filter((w) => w.code === 'AUR4211' && w.message.startsWith('the proposals ('));
    expect(proposals.length).toBeGreaterThan(0);
    expect(proposals[0]!.message).toMatch(/^the proposals \(\w+\) answer's \/moves\/0\/rationale carried control or bidi characters \(\\u2067 \\u0007\): removed before it was committed$/);
    expect(warnings.filter((w) => w.code === 'AUR4211' && !w.message.startsWith('the proposals (')).map((w) => w.message)).toEqual([
      "the director answer's /title carried control or bidi characters (\\u2066 \\u009b): removed before it was committed",
      "the director answer's /scenes/0/purpose carried control or bidi characters (\\u202e): removed before it was committed",
      "the recap answer's text carried control or bidi characters (\\u0000 \\u001b \\u202e \\u0085): removed before it was committed",
    ]);
  });
});
