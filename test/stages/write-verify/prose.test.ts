import { describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../../src/domain/packet.js';
import { renderScene, threadNoun } from '../../../src/providers/offline/writer.js';
import { lowerLead } from '../../../src/providers/offline/writer-phrases.js';
import { realizeRecap } from '../../../src/providers/offline/recap.js';
import { buildWriterRequest } from '../../../src/stages/e-writer/prompt.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import type { WriterPayload, WriterStyle } from '../../../src/stages/e-writer/types.js';
import { bindRoleNames, bindRoleNouns } from '../../../src/stages/d-packets/index.js';
import { metricNoun, type RecapPayload } from '../../../src/stages/h-commit/recap-model.js';
import type { World } from '../../../src/domain/world.js';
import { starterEpisode } from './starter.js';

/**
 * The offline writer's prose, read the way a showrunner reads it: on whole starter episodes,
 * no template seams (doubled articles, an article before a name, a lower-cased name, a role
 * word such as "actor" on the page, an empty vocative), and no stock line in every scene.
 */
function sceneTexts(packets: ScenePacket[], style: WriterStyle, seed: string): string[] {
  return packets.map((p) => {
    const payload = buildWriterRequest(p, style, { seed, attempt: 1, mode: 'write' }).payload as WriterPayload;
    return parseWriterOutput(renderScene(payload)).scene_text;
  });
}

function nameParts(world: World): { short: string[]; first: string[] } {
  const short = world.characters.characters.map((c) => c.cue.charAt(0) + c.cue.slice(1).toLowerCase());
  const first = world.characters.characters.map((c) => c.name.split(/\s+/)[0]!);
  return { short, first };
}

/** Sentences of more than a few words, as they occur across the texts. */
function sentenceCounts(texts: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of texts) {
    for (const line of t.split('\n')) {
      if (!line || line.startsWith('#') || line.startsWith('**')) continue;
      for (const s of line.replace(/^> [A-Z]+: /, '').split(/(?<=[.!?])\s+/)) {
        if (s.split(/\s+/).length >= 5) counts.set(s, (counts.get(s) ?? 0) + 1);
      }
    }
  }
  return counts;
}

describe('offline prose: no template seams', () => {
  for (const seed of ['7', 'ides']) {
    it(`a whole starter episode (seed ${seed}) reads clean`, async () => {
      const ep = await starterEpisode(seed);
      const texts = sceneTexts(ep.packets, ep.style, seed);
      const all = texts.join('\n');
      const { short, first } = nameParts(ep.world);
      expect(all).not.toMatch(/\b(the|a|an) (the|a|an)\b/i);
      // No article before a name ("The Quintus Aemilius Varo hands …").
      const names = [...new Set([...short, ...first])].join('|');
      expect(all).not.toMatch(new RegExp(`\\b(the|The|a|an) (${names})\\b`));
      // A name never loses its capital ("murena's vote-brokers").
      expect(all).not.toMatch(new RegExp(`\\b(${short.map((s) => s.toLowerCase()).join('|')})\\b`));
      // Role words of the operator data never reach the page.
      expect(all).not.toMatch(/\b(actor|target|rival)('s)?\b/);
      // No unfilled placeholder, no vocative to nobody, no alternatives left in.
      expect(all).not.toMatch(/[{}]/);
      expect(all).not.toMatch(/, someone[.,]/);
      expect(all).not.toMatch(/\bthe risk comes due\b/);
      // Every prose line starts with a capital (or is dialogue, a heading, or the cast line).
      for (const line of all.split('\n')) if (line && !/^(#|>|\*\*)/.test(line)) expect(line).toMatch(/^[A-Z0-9"(]/);
      // A full name is used once per line at most; after that the short name.
      for (const c of ep.world.characters.characters) {
        if (!c.name.includes(' ')) continue;
        for (const line of all.split('\n')) if (!line.startsWith('**Cast:**')) expect(line.split(c.name).length - 1).toBeLessThanOrEqual(1);
      }
      // The same line does not open every scene.
      const counts = sentenceCounts(texts);
      const worst = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
      expect(worst[1], `"${worst[0]}" appears ${worst[1]} times`).toBeLessThanOrEqual(3);
      // A thread's question is quoted in full at most once per scene.
      for (const t of texts) {
        const quoted = ep.world.threads.threads.filter((th) => t.includes(th.question.replace(/\?$/, ''))).length;
        expect(quoted).toBeLessThanOrEqual(1);
      }
    });
  }
});

describe('offline prose: the helpers', () => {
  it('lowerLead lowers only a common first word, never a name', () => {
    expect(lowerLead('The vote-brokers who worked for Murena were paid')).toBe('the vote-brokers who worked for Murena were paid');
    expect(lowerLead("Murena's vote-brokers were paid")).toBe("Murena's vote-brokers were paid");
    expect(lowerLead('Fulvia carries the news')).toBe('Fulvia carries the news');
    expect(lowerLead('A letter under seal')).toBe('a letter under seal');
  });

  it('threadNoun names a thread by its matter, with the names capitalised', () => {
    expect(threadNoun('thr_murena_trial', 'Will Cato convict Murena?')).toBe("Murena's trial");
    expect(threadNoun('thr_servilia_caesar', 'Can the affair of Servilia and Caesar survive?')).toBe('the business of Servilia and Caesar');
    expect(threadNoun('thr_grain_shortage', 'Will the grain reach the city?')).toBe('the grain shortage');
    expect(threadNoun('thr_cicero_household', '', new Set(['cicero']))).toBe("Cicero's household");
  });

  it('role names and role nouns in risk texts become the bound names', () => {
    const roles = new Map([['actor', 'Cicero'], ['target', 'Fulvia']]);
    expect(bindRoleNames(bindRoleNouns('A floorboard creaks and target knows someone was listening.', roles), roles)).toBe('A floorboard creaks and Fulvia knows someone was listening.');
    expect(bindRoleNames(bindRoleNouns('The target is followed.', roles), roles)).toBe('Fulvia is followed.');
    expect(bindRoleNames(bindRoleNouns('Bystanders think the actor petty.', roles), roles)).toBe('Bystanders think Cicero petty.');
    expect(bindRoleNames(bindRoleNouns('The accused turns the charge back on the accuser.', roles), roles)).toBe('Fulvia turns the charge back on Cicero.');
    // A label that brings its own article keeps it once.
    expect(bindRoleNames('actor hands rival secret.', new Map([['actor', 'Varo'], ['rival', 'Cato'], ['secret', 'the secret ("x")']]))).toBe('Varo hands Cato the secret ("x").');
  });

  it('metrics read as nouns in sentences, not as dashboard labels', () => {
    expect(metricNoun('legal_exposure', "How much of the year's dirt is heading for the courts")).toBe('the legal danger to the powerful');
    expect(metricNoun('unrest', 'Unrest in the streets (0 calm, 10 the city burns)')).toBe('unrest in the streets');
    expect(metricNoun('piety', 'Piety of the people (0 godless, 10 devout)')).toBe('piety of the people');
    expect(metricNoun('mood_index', 'How cheerful is the city')).toBe('mood index');
  });
});

describe('offline recap prose', () => {
  const payload = (events: RecapPayload['events']): RecapPayload => ({
    task: 'recap',
    episode_id: 's01e01',
    title: 'T',
    world_title: 'Rome',
    events,
    dashboard: { metrics: [], threads: [], short_names: { 'Marcus Porcius Cato': 'Cato', 'Lucius Licinius Murena': 'Murena' } },
    cliffhanger: { summary: 'Marcus Porcius Cato walks out', open_question: 'Who?' },
  });

  it('keeps a name capitalised, names people in full once, and uses metric nouns', () => {
    const text = realizeRecap(
      payload([
        { kind: 'learned', scene: 'SC01', who: 'Marcus Porcius Cato', secret: "Murena's vote-brokers were paid from Varo's strongbox." },
        { kind: 'learned', scene: 'SC02', who: 'Lucius Licinius Murena', secret: 'The consul has an informant.' },
        { kind: 'global', scene: 'SC03', metric: "How much of the year's dirt is heading for the courts", noun: 'the legal danger to the powerful', change: 1.5 },
        { kind: 'intention', scene: 'SC04', who: 'Marcus Porcius Cato', intention: 'MOUNT_DEFENCE', added: true, phrase: 'mount defence' },
      ]),
    );
    expect(text).toContain("Marcus Porcius Cato learned that Murena's vote-brokers were paid");
    expect(text).toContain('Lucius Licinius Murena learned that the consul has an informant.');
    expect(text).toContain('The legal danger to the powerful rose by 1.5 points.');
    expect(text).not.toContain("How much of the year's dirt");
    expect(text).toContain('Cato resolved to mount a defence.');
    expect(text).toContain('And at the last: Cato walks out.');
    expect(text.split('Marcus Porcius Cato').length - 1).toBe(1);
  });
});
