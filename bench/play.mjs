// Child process: the offline play turn (target ≤ 200 ms; issue 15). Plays 20 turns in-process on a
// fresh starter world (open mode, no critical event: no canonization; a canonization is a git commit, timed by the episode bench), prints one JSON line with the median and max turn.
//   node bench/play.mjs
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dist, median, r1 } from './lib.mjs';

const { main } = await dist('cli/main.js');
const { PlaySession } = await dist('play/session.js');
const { fileSessionStore } = await dist('play/store.js');
const { improvisedPacket } = await dist('play/context.js');
const { loadWorldOrThrow } = await dist('store/load.js');
const { loadConfigOrThrow } = await dist('config/index.js');
const { openLlm } = await dist('providers/index.js');

const parent = await mkdtemp(path.join(os.tmpdir(), 'aureus-bench-play-'));
try {
  const quiet = { stdout: () => {}, stderr: () => {}, env: { NO_COLOR: '1' }, cwd: parent, isTTY: false };
  if ((await main(['init', 'w'], quiet)) !== 0) throw new Error('aureus init failed');
  const root = path.join(parent, 'w');
  const { world } = await loadWorldOrThrow(root);
  const { config } = loadConfigOrThrow(root);
  const packet = improvisedPacket(world, 'forum', ['cicero', 'catiline', 'crassus']);
  const deps = { root, store: fileSessionStore(root), llm: openLlm({ root, config: { ...config, provider: 'offline' }, seed: 'bench' }), world, packet, pinned: null, briefBudget: 500, maxInput: 2000, emit: () => {}, info: () => {} };
  const setup = { scene: 'PLAY', episode: null, location: 'forum', principal: 'cicero', cast: ['catiline', 'crassus'], mode: 'open', turn_budget: 20, objective: null, season: 1 };
  const s = PlaySession.start(deps, 'bench', 'bench', setup);
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await s.line(i % 2 ? 'Crassus, what will it cost me?' : 'Catiline, where were you last night? Answer me!');
    times.push(performance.now() - t0);
  }
  process.stdout.write(JSON.stringify({ turns: times.length, median_ms: r1(median(times)), max_ms: r1(Math.max(...times)) }) + '\n');
} finally {
  await rm(parent, { recursive: true, force: true });
}
