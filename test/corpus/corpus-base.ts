import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadWorldOrThrow } from '../../src/store/load.js';
import { loadStyle } from '../../src/style/index.js';
import { packageRoot } from '../../src/paths.js';
import type { EpisodePlan } from '../../src/domain/plan.js';
import type { VerifyContext } from '../../src/stages/f-verifier/context.js';
import { worldVerifyContext } from '../../src/stages/f-verifier/world-context.js';
import { planPrereqs } from '../../src/stages/scenes.js';

/** The writer corpus folder: its packets, plan and world serve the prose corpus too. */
export const WRITER_CORPUS = path.resolve(__dirname, '..', 'fixtures', 'writer-corpus');

/**
 * The verify context both corpora were planned in (see the writer corpus README): the starter world
 * with Catiline dead (world-characters.json), the starter style, and the plan's prerequisites.
 */
export async function corpusBase(): Promise<Omit<VerifyContext, 'packet'>> {
  const { world } = await loadWorldOrThrow(packageRoot());
  world.characters = JSON.parse(readFileSync(path.join(WRITER_CORPUS, 'world-characters.json'), 'utf8'));
  const style = await loadStyle(packageRoot());
  const plan = JSON.parse(readFileSync(path.join(WRITER_CORPUS, 'episode_plan.json'), 'utf8')) as EpisodePlan;
  return { ...worldVerifyContext(world, style.lexicon), prereqs: planPrereqs(plan) };
}
