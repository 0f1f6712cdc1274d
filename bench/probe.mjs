// Preloaded into a benchmarked CLI process (`node --import bench/probe.mjs …`): at exit it appends
// the process's own CPU time and peak RSS to $AUREUS_BENCH_PROBE, so the bench reports CPU (much less
// noisy than wall time on a shared machine) and memory of the real CLI, not of an in-process stand-in.
import { appendFileSync } from 'node:fs';

const out = process.env.AUREUS_BENCH_PROBE;
if (out) {
  process.on('exit', () => {
    const u = process.cpuUsage();
    appendFileSync(out, JSON.stringify({ cpu_ms: (u.user + u.system) / 1000, rss_mb: process.resourceUsage().maxRSS / 1024 }) + '\n');
  });
}
