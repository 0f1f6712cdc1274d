import { loadWorldOrThrow } from '../../../src/store/load.js';
import { buildEpisodeContext } from '../../../src/stages/a-snapshot/index.js';
import { proposeSymbolic } from '../../../src/stages/b-proposals/index.js';
import { planSymbolic } from '../../../src/stages/c-director/plan.js';
import { buildPackets } from '../../../src/stages/d-packets/index.js';
import { loadStyle } from '../../../src/style/index.js';
import { episodeRef } from '../../../src/domain/context.js';
import { LlmRouter } from '../../../src/providers/router.js';
import { OfflineProvider } from '../../../src/providers/offline/index.js';
import { defaultConfig } from '../../../src/config/defaults.js';
import { packageRoot } from '../../../src/paths.js';
import type { WriterStyle } from '../../../src/stages/e-writer/types.js';

const memo = new Map<string, ReturnType<typeof plan>>();

/** The starter season kit's episode 1, planned and packeted by the real stages A-D (memoised: planning is the slow part). */
export function starterEpisode(seed: string): ReturnType<typeof plan> {
  if (!memo.has(seed)) memo.set(seed, plan(seed));
  return memo.get(seed)!;
}

async function plan(seed: string) {
  const root = packageRoot();
  const { world } = await loadWorldOrThrow(root);
  const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed, previousCliffhanger: null });
  const proposals = proposeSymbolic(world, context);
  const episodePlan = planSymbolic({ world, context, proposals, seed });
  const packets = buildPackets(episodePlan, world, context);
  const st = await loadStyle(root);
  const style: WriterStyle = { guide: st.guide, lexicon: st.lexicon, lexicon_md: st.lexiconMarkdown };
  return { world, plan: episodePlan, packets, style };
}

/** The real router around the real offline provider (the writer and critic realizers of this area). */
export function offlineLlm(seed: string, chaos = 0, concurrency = 4) {
  const config = { ...defaultConfig(), concurrency };
  return new LlmRouter({ config, provider: new OfflineProvider({ seed, chaos }), providerId: 'offline', deterministic: true });
}
