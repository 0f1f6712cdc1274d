import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadWorldOrThrow } from '../../src/store/load.js';
import { loadStyle } from '../../src/style/index.js';
import { packageRoot } from '../../src/paths.js';
import type { EpisodePlan } from '../../src/domain/plan.js';
import type { VerifyContext } from '../../src/stages/f-verifier/context.js';
import { verifySceneOutput, type SceneVerification } from '../../src/stages/f-verifier/verify.js';
import { readPacket } from '../../src/stages/f-verifier/load.js';
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

/**
 * The codes that name each defect family (test/fixtures/prose-corpus/families.json, one table for
 * every prose corpus test and bench/prose.mjs): a hard finding of another family is not a catch.
 */
export const FAMILY_CODES: Record<string, RegExp> = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(path.resolve(__dirname, '..', 'fixtures', 'prose-corpus', 'families.json'), 'utf8')) as Record<string, string>).map(([k, v]) => [k, new RegExp(v)]),
);

/** The findings that fail a scene. */
export const hardFindings = (v: SceneVerification) => v.findings.filter((f) => f.severity === 'hard');

/** Every answer of a corpus folder through the real normaliser and verifier, against its packet in the corpus base. */
export async function verifyCorpus(dir: string, entries: readonly { file: string; packet: string }[]): Promise<Map<string, SceneVerification>> {
  const base = await corpusBase();
  return new Map(entries.map((e) => [e.file, verifySceneOutput(readFileSync(path.join(dir, e.file), 'utf8'), { ...base, packet: readPacket(path.join(WRITER_CORPUS, e.packet)) })]));
}
