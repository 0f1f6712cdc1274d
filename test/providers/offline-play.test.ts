import { describe, expect, it } from 'vitest';
import { realizeActor } from '../../src/providers/offline/play.js';
import { Rng } from '../../src/core/rng.js';
import type { ActorPayload } from '../../src/play/actor.js';
import type { LlmRequest } from '../../src/ports/llm.js';
import { readStarterWorld } from '../support/starter-world.js';

/**
 * The offline Actor's "And the … will not wait." names a thing from a thread's question. It took the
 * question's first long word, so an audit saw "And the before will not wait." and "And the caesar
 * will not wait.". Checked on every starter thread and on questions written the way a person would.
 */
const QUESTIONS = [
  ...readStarterWorld().threads.threads.map((t) => t.question),
  'Will Pompey return before the Senate can act against him?',
  'Should Clodius trust the tribunes, or rather buy the votes himself?',
];

function lineFor(topic: string, seed: string): string | undefined {
  const payload: ActorPayload = {
    kind: 'play_actor', speaker: 'catiline', principal: 'cicero', user_text: 'Where were you?', turn: 0, tension: 0.3, topics: [topic],
    cast: [{ id: 'catiline', name: 'Lucius Sergius Catilina', cue: 'CATILINE', mood: 'guarded', objective: 'hold position', sample_lines: [] }],
  };
  const req = { role: 'writer', payload } as unknown as LlmRequest;
  const answer = realizeActor(req, { rng: new Rng(seed), chaos: 0, seed }) as { json: { dialogue: string } };
  return /And the (\S+) will not wait\./.exec(answer.json.dialogue)?.[1];
}

describe('offline play Actor: the topic line', () => {
  it('names a lower-case noun that follows a determiner in the question, never a name or a function word', () => {
    let lines = 0;
    for (const q of QUESTIONS) {
      for (let i = 0; i < 12; i++) {
        const word = lineFor(q, `s${i}`);
        if (!word) continue;
        lines++;
        expect(q, word).toMatch(new RegExp(`\\b(?:the|his|her|their) ${word}\\b`));
        expect(['before', 'against', 'caesar', 'pompey', 'rather', 'should', 'own']).not.toContain(word);
      }
    }
    expect(lines).toBeGreaterThan(20);
  });
});
