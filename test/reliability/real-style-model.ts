import { modelAnswer } from './fake-model.js';
import { steps, type FakeRequest, type FakeStep } from '../support/fake-anthropic-server.js';

/**
 * A model behind the fake Messages API that answers in the styles Claude actually writes
 * (the forms of test/fixtures/writer-corpus, issue 13): the story comes from the offline realizer
 * reading the wire prompt (fake-model.ts), and the answer is re-dressed the way the corpus answers
 * are — bold or heading markers, a preamble, ```json fences, a whole answer in a ```markdown fence,
 * `**CATO:**` or `CATO:` cues, smart quotes, a trailing note. `broken` scenes write their events
 * as a markdown table, `combined` scenes their claims and events in one JSON object under one
 * heading: forms only a format-fix call can turn back into the three sections.
 */
export interface Sections {
  text: string;
  claims: unknown[];
  events: Array<Record<string, unknown>>;
}

export function sectionsOf(answer: string): Sections {
  const m = /---SCENE_TEXT---\n([\s\S]*?)\n+---CLAIMS---\n([\s\S]*?)\n+---SCENE_EVENTS---\n([\s\S]*)$/.exec(answer);
  if (!m) throw new Error(`real-style model: not a canonical answer:\n${answer.slice(0, 300)}`);
  return { text: m[1]!.trim(), claims: JSON.parse(m[2]!) as unknown[], events: JSON.parse(m[3]!) as Sections['events'] };
}

const smart = (s: string) => s.replace(/(^|[\s(—-])"/g, '$1\u201c').replace(/"/g, '\u201d').replace(/(\w)'(\w)/g, '$1\u2019$2');
const cues = {
  bold: (t: string) => t.replace(/^> ([A-Z][A-Z .'-]*): /gm, '**$1:** '),
  plain: (t: string) => t.replace(/^> ([A-Z][A-Z .'-]*): /gm, '$1: '),
  gt: (t: string) => t,
};

/** The five sound forms, chosen by scene number; each is a form the corpus measured. */
export function redress(s: Sections, n: number): string {
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  switch (n % 5) {
    case 0:
      return `**SCENE_TEXT**\n\n${cues.bold(s.text)}\n\n**CLAIMS**\n\n\`\`\`json\n${json(s.claims)}\n\`\`\`\n\n**SCENE_EVENTS**\n\n\`\`\`json\n${json(s.events)}\n\`\`\`\n`;
    case 1:
      return `Here is the scene, written to the packet.\n\n### SCENE_TEXT\n\n${cues.plain(s.text)}\n\n### CLAIMS\n\n${s.claims.length ? json(s.claims) : 'None'}\n\n### SCENE_EVENTS\n\n${json(s.events)}\n`;
    case 2:
      return `\`\`\`markdown\n## Scene Text\n\n${smart(s.text)}\n\n## Claims\n\n${json(s.claims)}\n\n## Scene Events\n\n${json(s.events)}\n\`\`\`\n`;
    case 3:
      return `---SCENE_TEXT---\n${s.text}\n\n---CLAIMS---\n${JSON.stringify(s.claims)}\n\n---SCENE_EVENTS---\n${JSON.stringify(s.events)}\n\nNote: I kept the [money] offstage until the button line.\n`;
    default:
      return `---scene_text---\n${cues.bold(s.text)}\n\n---claims---\n${json(s.claims)}\n\n---scene_events---\n${json(s.events)}\n`;
  }
}

/** The events as a markdown table: readable to a person, not JSON (the corpus's w34 form). */
export function tableForm(s: Sections): string {
  const rows = s.events.map((e) => {
    const deltas = ((e.deltas as Array<Record<string, unknown>>) ?? []).map((d) => `${d.path} ${d.op} ${d.value ?? `${d.amount} ${d.from}->${d.to}`}`).join('; ');
    return `| ${e.id} | ${e.type} | ${e.application_id ?? ''} | ${e.actor ?? ''} | ${e.target ?? ''} | ${deltas} |`;
  });
  return `**SCENE_TEXT**\n\n${cues.bold(s.text)}\n\n**CLAIMS**\n\n${JSON.stringify(s.claims)}\n\n**SCENE_EVENTS**\n\n| id | type | application | actor | target | changes |\n| --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`;
}

/** The claims and events in one JSON object under one heading (the corpus's w50 form). */
export function combinedForm(s: Sections): string {
  const both = JSON.stringify({ claims: s.claims, scene_events: s.events }, null, 2);
  return `### SCENE_TEXT\n\n${s.text}\n\n### CLAIMS & SCENE_EVENTS\n\n\`\`\`json\n${both}\n\`\`\`\n`;
}

/** The prose of a draft in a broken form, as a format fixer copies it out of its prompt. */
function brokenProse(prompt: string): string | undefined {
  return (/\*\*SCENE_TEXT\*\*\n\n([\s\S]*?)\n\n\*\*CLAIMS\*\*/.exec(prompt) ?? /### SCENE_TEXT\n\n([\s\S]*?)\n\n### CLAIMS & SCENE_EVENTS/.exec(prompt))?.[1];
}

const textOf = (c: unknown): string => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((b: { text?: string }) => b.text ?? '').join('') : '');
export const isFormatFix = (req: FakeRequest) => textOf(req.body?.system).includes('You repair the FORM');
export const isCritic = (req: FakeRequest) => textOf(req.body?.messages[0]?.content).startsWith('SCENE_TEXT:\n');
export const isWriter = (req: FakeRequest) => !isCritic(req) && !isFormatFix(req) && textOf(req.body?.messages[0]?.content).includes('SCENE_PACKET:\n');
export const userText = (req: FakeRequest) => textOf(req.body?.messages[0]?.content);
export const sceneOf = (req: FakeRequest) => /"scene_id":"(SC\d+)"/.exec(userText(req))?.[1] ?? /## (SC\d+) —/.exec(userText(req))?.[1] ?? '';

export interface RealStyleModel {
  handler: (req: FakeRequest) => FakeStep;
  /** Every writer answer the model gave, by episode/scene (s01e01/SC02), in order. */
  drafts: Map<string, string[]>;
}

/**
 * The handler: writers answer in the real styles (`broken` scenes' first drafts with the events as
 * a table, `combined` scenes' with claims and events in one object),
 * the format fixer answers the draft's own prose with the events as JSON, `criticFails` scenes
 * are always failed by the critic, and everything else answers as fake-model.ts does.
 */
export function realStyleModel(o: { broken?: Set<string>; combined?: Set<string>; criticFails?: Set<string> } = {}): RealStyleModel {
  const drafts = new Map<string, string[]>();
  const canonical = new Map<string, Sections>();
  const handler = (req: FakeRequest): FakeStep => {
    if (isFormatFix(req)) {
      const scene = /## (SC\d+) —/.exec(userText(req))?.[1] ?? '';
      const s = canonical.get(scene)!;
      const prose = brokenProse(userText(req)) ?? s.text;
      return steps.ok(`---SCENE_TEXT---\n${prose}\n\n---CLAIMS---\n${JSON.stringify(s.claims)}\n\n---SCENE_EVENTS---\n${JSON.stringify(s.events)}\n`);
    }
    if (isCritic(req) && o.criticFails?.has(/"scene_id":"(SC\d+)"/.exec(userText(req))?.[1] ?? '')) {
      return steps.json({ verdict: 'FAIL', violations: [{ type: 'voice', rule: 'register', severity: 'major', message: 'the speeches sound modern, not Roman' }], warnings: [], fix_instructions: ['Give the last exchange a Roman turn of phrase.'] });
    }
    const text = modelAnswer(req);
    if (!isWriter(req)) return steps.ok(text);
    const s = sectionsOf(text);
    const scene = /^## (SC\d+)/.exec(s.text)?.[1] ?? '';
    const key = `${/"episode_id":"(s\d+e\d+)"/.exec(userText(req))?.[1]}/${scene}`;
    canonical.set(scene, s);
    const list = drafts.get(key) ?? [];
    const first = list.length === 0;
    const answer = o.broken?.has(scene) && first ? tableForm(s) : o.combined?.has(scene) && first ? combinedForm(s) : redress(s, Number(scene.slice(2)));
    list.push(answer);
    drafts.set(key, list);
    return steps.ok(answer);
  };
  return { handler, drafts };
}
