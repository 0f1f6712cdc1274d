import { describe, expect, it } from 'vitest';
import { whatTheyAre } from '../../src/pipeline/clean-world.js';
import { diag } from '../../src/diagnostics/index.js';

/**
 * AUR6001 said "uncommitted changes under the world files: seasons/season_01/notes.json": the file
 * it named is a season file, and an author looking under world/ found nothing. It now says what the
 * files are (the CLI tests in test/pipeline/season-inputs-dirty.test.ts and test/season/note-dirty.test.ts
 * check it end to end).
 */
describe('AUR6001 names what the uncommitted files are', () => {
  it('by kind, each once, in the order met', () => {
    expect(whatTheyAre(['world/characters.json', 'world/world.json'])).toBe('the world files');
    expect(whatTheyAre(['seasons/season_01/notes.json'])).toBe('the season notes');
    expect(whatTheyAre(['seasons/season_02/season_goals.json'])).toBe('the season goals');
    expect(whatTheyAre(['seasons/season_01/episode_03/episode_plan.json'])).toBe("the episodes' files");
    expect(whatTheyAre(['seasons/season_01/what_if/wi.json'])).toBe('the season files');
    expect(whatTheyAre(['style/lexicon.md', 'aureus.config.yaml', 'operators/x.json'])).toBe('the style files, the config and the operators');
    expect(whatTheyAre(['world/world.json', 'seasons/season_01/notes.json'])).toBe('the world files and the season notes');
  });

  it('in the message', () => {
    const d = diag('AUR6001', { what: whatTheyAre(['seasons/season_01/notes.json']), files: 'seasons/season_01/notes.json', override: '' });
    expect(d.message).toBe('uncommitted changes to the season notes: seasons/season_01/notes.json');
  });
});
