import { describe, expect, it } from 'vitest';
import { extractDirectives, parseCommand } from '../../src/play/directives.js';
import { cleanInput } from '../../src/play/input.js';
import { beatByPosition, completion, initialDirector, threadsInPlay, writeBrief } from '../../src/play/director.js';
import { improvisedPacket } from '../../src/play/context.js';
import { renderAnswer } from '../../src/play/actor.js';
import { LineStream, visibleLine } from '../../src/play/stream.js';
import { stripControlIn } from '../../src/diagnostics/sanitize.js';
import { estimateTokens } from '../../src/stages/d-packets/index.js';
import { readStarterWorld } from '../support/starter-world.js';
import type { SceneSetup } from '../../src/play/types.js';
import { renderText } from '../../src/play/render.js';
import { plural } from '../../src/core/readable.js';

describe('directives and commands (seed 001)', () => {
  it('strips directives the way a real model writes them, and parses them into actions', () => {
    const raw = 'You dare? [DIRECTIVE:beat|beat:pivot] Then hear me.\n[directive:note|idea:Crassus funds him] [DIRECTIVE:title]';
    const { clean, parsed } = extractDirectives(raw);
    expect(clean).toBe('You dare? Then hear me.');
    expect(parsed[0]).toMatchObject({ ok: true, action: { name: 'beat', text: 'pivot', source: 'directive' } });
    expect(parsed[1]).toMatchObject({ ok: true, action: { name: 'note', text: 'Crassus funds him' } });
    expect(parsed[2]).toMatchObject({ ok: false });
  });
  it('strips a directive the model never closed and reports it', () => {
    const { clean, parsed } = extractDirectives('Go. [DIRECTIVE:note|idea:half');
    expect(clean).toBe('Go.');
    expect(parsed).toEqual([{ ok: false, error: 'unterminated directive' }]);
  });
  it('renders *action* "dialogue" with directives removed from every field', () => {
    const t = renderAnswer({ speaker: 'catiline', dialogue: 'Never. [DIRECTIVE:beat|beat:pivot]', action: 'smiles [DIRECTIVE:note|idea:x]', internal: 'fear', mood: 'cold', tension_shift: 0.9 }, 'CATILINE');
    expect(t.content).toBe('CATILINE: *smiles* "Never."');
    expect(t.answer.tension_shift).toBe(0.3);
    expect(t.directives).toHaveLength(2);
  });
  it('parses slash commands and refuses unknown ones', () => {
    expect(parseCommand('/note  a b ')).toMatchObject({ ok: true, action: { name: 'note', text: 'a b' } });
    expect(parseCommand('/nope')).toMatchObject({ ok: false });
    expect(parseCommand('hello')).toBeNull();
  });
});

describe('input and director', () => {
  it('cleans control characters and cuts long lines by characters, not bytes', () => {
    const r = cleanInput('\u001b[1mΑβγ\u0000δ' + 'ε'.repeat(20), 10);
    expect(r.text).toBe('Αβγδεεεεεε');
    expect(r.truncated).toBe(true);
    expect(r.notices).toHaveLength(2);
  });
  it('removes bidi overrides and isolates from a line (its claim reaches canon.json), not marks or letters', () => {
    const r = cleanInput('I accuse \u202eonitaliC\u202c of \u2066treason\u2069 — Cicerō, Κικέρων 🏛️');
    expect(r.text).toBe('I accuse onitaliC of treason — Cicerō, Κικέρων 🏛️');
    expect(r.notices).toEqual(['removed 4 control or bidi character(s) from your line']);
    expect(cleanInput('Cicerō\u200e spoke').text).toBe('Cicerō\u200e spoke');
  });
  it('beats by position and completion per mode', () => {
    expect([1, 2, 3, 4].map((t) => beatByPosition(t, 4))).toEqual(['complication', 'escalation', 'pivot', 'pivot']);
    const setup: SceneSetup = { scene: 'PLAY', episode: null, location: 'forum', principal: 'cicero', cast: ['catiline'], mode: 'objective', turn_budget: 8, objective: 'accusation_made', season: 1 };
    expect(completion({ ...initialDirector(), flags: { accusation_made: true } }, setup)).toBe('objective_met');
    expect(completion({ ...initialDirector(), turn_count: 8 }, { ...setup, mode: 'open' })).toBeNull();
  });
  it('keeps the brief within its token budget', () => {
    const world = readStarterWorld();
    const packet = improvisedPacket(world, 'forum', ['cicero', 'catiline', 'crassus', 'caesar']);
    const setup: SceneSetup = { scene: 'PLAY', episode: null, location: 'forum', principal: 'cicero', cast: ['catiline', 'crassus', 'caesar'], mode: 'turn_limited', turn_budget: 8, objective: null, season: 1 };
    const big = writeBrief(packet, setup, setup.cast, initialDirector(), [], 500);
    const small = writeBrief(packet, setup, setup.cast, initialDirector(), [], 80);
    expect(estimateTokens(big)).toBeLessThanOrEqual(500 + 4);
    expect(small.tokens).toBeLessThan(big.tokens);
    expect(estimateTokens(small)).toBeLessThanOrEqual(84);
  });
  it('an improvised scene gets its packet from stage D itself (its walk and its forbidden facts)', () => {
    const world = readStarterWorld();
    const p = improvisedPacket(world, 'forum', ['cicero', 'catiline']);
    expect(p).toMatchObject({ episode_id: 'play', scene_id: 'PLAY', setting: { location: 'forum' } });
    expect(p.retrieved_subgraph.k).toBe(2);
    expect(p.cast.map((c) => c.id)).toEqual(['cicero', 'catiline']);
    // Two hops: someone tied only to a character tied to the cast is in the subgraph.
    const oneHop = new Set(world.relationships.relationships.filter((r) => ['cicero', 'catiline'].includes(r.from) || ['cicero', 'catiline'].includes(r.to)).flatMap((r) => [r.from, r.to]));
    expect(p.retrieved_subgraph.characters.some((c) => !oneHop.has(c.id))).toBe(true);
    expect(p.constraints.forbidden_facts).toContain('Only the cast (Marcus Tullius Cicero, Lucius Sergius Catilina) speak or act on stage');
    expect(() => improvisedPacket(world, 'atlantis', ['cicero'])).toThrow(/--at atlantis: no such location/);
  });
  it('names the threads the exchanges moved in the brief', () => {
    const world = readStarterWorld();
    const packet = improvisedPacket(world, 'forum', ['cicero', 'catiline', 'crassus']);
    const setup: SceneSetup = { scene: 'PLAY', episode: null, location: 'forum', principal: 'cicero', cast: ['catiline', 'crassus'], mode: 'open', turn_budget: 8, objective: null, season: 1 };
    const open = packet.retrieved_subgraph.threads.find((t) => t.status === 'open')!;
    const word = open.question.toLowerCase().match(/[a-z]{6,}/)![0];
    expect(threadsInPlay(packet, [{ user: 'Good morning.', answer: { dialogue: 'And to you.' } }])).not.toContain(open.id);
    const moving = threadsInPlay(packet, [{ user: `Tell me about the ${word}.`, answer: { dialogue: 'Never.' } }]);
    expect(moving).toContain(open.id);
    const brief = writeBrief(packet, setup, setup.cast, initialDirector(), [], 500, moving);
    expect(brief.key_facts).toContain(`In play now: ${open.question}`);
  });
});

describe('the streamed line (stream.ts)', () => {
  const answer = { speaker: 'catiline', action: 'smiles', dialogue: 'You call it "conspiracy", Consul. [DIRECTIVE:beat|beat:pivot] I call it arithmetic \u2014 ask Crass\u00fas.', internal: 'x', mood: 'cold', tension_shift: 0.1 };
  const raw = 'Here you go:\n```json\n' + JSON.stringify(answer, null, 2).replace('\u00fa', '\\u00fa') + '\n```';
  const final = renderAnswer(answer, 'CATILINE').content;

  it('cut anywhere, what is shown is a prefix of the final line and never holds directive text', () => {
    for (let cut = 1; cut <= raw.length; cut++) {
      const shown: string[] = [];
      const s = new LineStream('CATILINE', (d) => shown.push(d));
      for (const piece of [raw.slice(0, cut), raw.slice(cut)]) s.text(piece);
      s.finish(final);
      expect(shown.join('')).toBe(final);
    }
    for (let cut = 1; cut < raw.length; cut += 3) {
      const line = visibleLine(raw.slice(0, cut), 'CATILINE') ?? '';
      expect(final.startsWith(line) || line === '', `cut ${cut}: ${line}`).toBe(true);
      expect(line).not.toMatch(/\[|DIRECTIVE/);
    }
  });
  it('a streamed line never carries a control character, terminal escape or bidi override, and still ends as the final line', () => {
    const dirty = { ...answer, action: 'sm\u001b[31miles\u0007', dialogue: 'You call it \u202econspiracy\u202c, Consul \u2066Tullius\u2069. I call it arithmetic\u0000.' };
    const rawDirty = JSON.stringify(dirty);
    const finalClean = renderAnswer(stripControlIn(dirty, '', () => {}) as typeof answer, 'CATILINE').content;
    for (let cut = 1; cut <= rawDirty.length; cut += 2) {
      const shown: string[] = [];
      const s = new LineStream('CATILINE', (d) => shown.push(d));
      for (const piece of [rawDirty.slice(0, cut), rawDirty.slice(cut)]) s.text(piece);
      expect(shown.join(''), `cut ${cut}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      s.finish(finalClean);
      expect(shown.join('')).toBe(finalClean);
    }
  });
  it('a restart tells the next piece to reset; an action after the dialogue is not guessed', () => {
    const told: [string, boolean][] = [];
    const s = new LineStream('CATILINE', (d, reset) => told.push([d, reset]));
    s.text(raw.slice(0, 120));
    expect(s.streamed).toBe(true);
    s.restart();
    s.text(raw);
    expect(told.filter(([, r]) => r)).toHaveLength(1);
    const late = JSON.stringify({ speaker: 'catiline', dialogue: 'Ask him yourself, Consul.', action: 'shrugs' });
    expect(visibleLine(late.slice(0, late.indexOf('action')), 'CATILINE')).toBe('CATILINE: "Ask him yourself,');
  });
});

describe('counts as they read', () => {
  it('the saved line says 1 turn, 2 turns, 0 turns (core/readable.ts plural)', () => {
    const saved = (turns: number) => renderText({ type: 'done', session: 's1', turns }).out;
    expect(saved(1)).toBe('\nsession s1 saved (1 turn); show it with `aureus session show s1`\n');
    expect(saved(2)).toContain('saved (2 turns);');
    expect(saved(0)).toContain('saved (0 turns);');
    expect([plural(1, 'turn'), plural(3, 'turn'), plural(2, 'mouse', 'mice')]).toEqual(['turn', 'turns', 'mice']);
  });
});
