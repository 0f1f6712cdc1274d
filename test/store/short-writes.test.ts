import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { addNote } from '../../src/season/notes.js';
import { useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { FAKE_KEY } from '../providers/helpers.js';

/**
 * Every file Aureus replaces or appends to, under a file-size limit reached mid-write (`ulimit -f 1`:
 * 1024 bytes, in a child process; Node ignores SIGXFSZ, so the write past it fails with EFBIG, as a
 * full disk fails with ENOSPC). Each writer either lands whole or fails with AUR1053 naming its
 * file, the old file byte for byte as it was, no temp file left, and the process alive to say so.
 * Before, write-file-atomic's single write(2) renamed a file's first 1024 bytes over it (a play
 * session's log, a journal, season notes), or its exit hook turned SIGXFSZ back on and the process
 * died of it (the response cache, the run log, the world files); the run log's append left half a line.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-short-'));
  dirs.push(d);
  return d;
};

const dist = (rel: string) => JSON.stringify(pathToFileURL(path.join(import.meta.dirname, '../../dist', rel)).href);
const BIG = 'x'.repeat(5000);

/** Run-log lines (valid entries) out of canonical order, so finalize rewrites them: 295 bytes each. */
const logLines = (n: number, label = '') =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ role: 'writer', model: 'claude-sonnet-5-5', provider: 'anthropic', episode: 's01e01', scene: `SC${String(n - i).padStart(2, '0')}`, label, attempt: 1, reask: 0, escalated: false, latency_ms: 10, input_tokens: 100, output_tokens: 50, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0.001, stop_reason: 'end_turn' }) + '\n').join('');

interface Site {
  name: string;
  /** Made in `d` without a limit: the files the write must leave as they are. */
  setup: (d: string) => void;
  /** ES module code run under the limit, given `d`; it awaits the write. */
  write: string;
}

const SITES: Site[] = [
  {
    name: 'a journal (writeDurable)',
    setup: (d) => fs.writeFileSync(path.join(d, 'journal.json'), '{"state":"staged"}\n'),
    write: `const m = await import(${dist('store/durable.js')}); m.writeDurable(d + '/journal.json', ${JSON.stringify(BIG)});`,
  },
  {
    name: 'a file written through a link (writeVisible)',
    setup: (d) => {
      fs.writeFileSync(path.join(d, 'target.json'), 'old\n');
      fs.symlinkSync(path.join(d, 'target.json'), path.join(d, 'link.json'));
    },
    write: `const m = await import(${dist('store/durable.js')}); m.writeVisible(d + '/link.json', ${JSON.stringify(BIG)});`,
  },
  {
    name: 'a world file (store/write.ts)',
    setup: (d) => fs.writeFileSync(path.join(d, 'characters.json'), '{"characters":[]}\n'),
    write: `const m = await import(${dist('store/write.js')}); await m.writeTextFile(d + '/characters.json', ${JSON.stringify(BIG)});`,
  },
  {
    name: 'a response cache entry (rejected: rewritten whole)',
    setup: (d) => {
      const key = 'ab'.repeat(32);
      fs.mkdirSync(path.join(d, 'cache/ab'), { recursive: true });
      fs.writeFileSync(path.join(d, 'cache/ab', `${key}.json`), JSON.stringify({ format: 2, key, role: 'writer', provider: 'anthropic', model: 'm', response: { text: 'y'.repeat(3000), usage: {}, stop_reason: 'end_turn', model: 'm' } }));
    },
    write: `const { ResponseCache } = await import(${dist('providers/cache.js')}); const c = new ResponseCache(d + '/cache');
      const e = await c.get('ab'.repeat(32)); await c.put({ ...e, rejected: true });`,
  },
  {
    name: 'the run log, put in canonical order (finalize)',
    setup: (d) => fs.writeFileSync(path.join(d, 'run_log.jsonl'), logLines(12)),
    write: `const { JsonlRunLog } = await import(${dist('providers/run-log.js')}); await new JsonlRunLog(d + '/run_log.jsonl').finalize();`,
  },
  {
    // 885 bytes, then a line of ~500: its first 139 bytes fit, the rest is EFBIG.
    name: 'the run log, a line appended past the limit',
    setup: (d) => fs.writeFileSync(path.join(d, 'run_log.jsonl'), logLines(3)),
    write: `const { JsonlRunLog } = await import(${dist('providers/run-log.js')}); const log = new JsonlRunLog(d + '/run_log.jsonl');
      log.append({ role: 'critic', model: 'm', provider: 'anthropic', label: 'z'.repeat(200), attempt: 1, reask: 0, escalated: false, latency_ms: 1, input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0, stop_reason: 'end_turn' });
      await log.flush();`,
  },
  {
    name: "a play session's log (appendMany)",
    setup: (d) => {
      fs.mkdirSync(path.join(d, '.aureus/sessions/s5'), { recursive: true });
      fs.copyFileSync(path.join(import.meta.dirname, '../fixtures/play/turns.jsonl'), path.join(d, '.aureus/sessions/s5/turns.jsonl'));
    },
    write: `const { fileSessionStore } = await import(${dist('play/store.js')}); fileSessionStore(d).append('s5', { kind: 'note', text: 'one more' });`,
  },
  {
    // 885 bytes, then a ~500-byte line past the limit: a play session's call log (synchronous, appendWholeSync).
    name: "a play session's call log, a line appended past the limit",
    setup: (d) => fs.writeFileSync(path.join(d, 'calls.jsonl'), logLines(3)),
    write: `const m = await import(${dist('store/atomic-write.js')}); m.appendWholeSync(d + '/calls.jsonl', ${JSON.stringify(logLines(1, 'z'.repeat(200)))});`,
  },
  {
    name: 'the season notes (aureus note)',
    setup: (d) => {
      for (let i = 0; i < 8; i++) addNote(d, 1, { text: `note ${i}: Cicero should lose his temper in public, and Terentia should see it from the gallery.`, episode: 's01e01', source: 'cli' });
    },
    write: `const m = await import(${dist('season/notes.js')}); m.addNote(d, 1, { text: 'one more note', episode: 's01e01', source: 'cli' });`,
  },
];

/** `code` (an ES module, given `d`) in a child process under `ulimit -f 1`: what it printed, how it ended. */
function underLimit(d: string, code: string, env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string; status: number | null; signal: string | null }> {
  const wrapped = `const d = ${JSON.stringify(d)}; try { ${code} console.log('written'); } catch (e) { console.log(e.diagnostics?.[0]?.code ?? e.code ?? String(e)); console.log(e.message); }`;
  return new Promise((resolve) => {
    // Asynchronous: the fake Messages API server answers from this process meanwhile.
    const child = execFile('bash', ['-c', 'ulimit -f 1 && exec "$@"', 'bash', process.execPath, '--input-type=module', '-e', wrapped], { encoding: 'utf8', env: { ...process.env, ...env } }, (_e, stdout, stderr) =>
      resolve({ stdout, stderr, status: child.exitCode, signal: child.signalCode }));
  });
}

/** The child's write failed with AUR1053 naming a file under `d` (not its temp file), alive, the files as they were. */
function expectRefusedWhole(d: string, r: Awaited<ReturnType<typeof underLimit>>, before: Record<string, string>): void {
  expect(r.signal, r.stderr).toBeNull();
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  const [what, message] = r.stdout.trim().split('\n');
  expect(what, r.stdout).toBe('AUR1053');
  expect(message).toMatch(new RegExp(`^cannot write ${d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`));
  expect(message).not.toMatch(/\.\d+$/);
  expect(snapshot(d)).toEqual(before);
}

/** Every file under `d` with its bytes (links as their target's path). */
function snapshot(d: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of fs.readdirSync(d, { recursive: true }) as string[]) {
    const abs = path.join(d, rel);
    const st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(abs)}`;
    else if (st.isFile()) out[rel] = fs.readFileSync(abs, 'latin1');
  }
  return out;
}

const bash = process.platform === 'linux' && spawnSync('bash', ['-c', 'true']).status === 0;
const built = fs.existsSync(path.join(import.meta.dirname, '../../dist/store/durable.js'));

describe.skipIf(!bash || !built)('a write cut short by a file-size limit (ulimit -f 1): whole or AUR1053, the old file kept', () => {
  for (const site of SITES) {
    it(site.name, async () => {
      const d = temp();
      site.setup(d);
      const before = snapshot(d);
      expectRefusedWhole(d, await underLimit(d, site.write), before);
    });
  }
});

describe.skipIf(!bash || !built)('the batch record (season run --batch) under ulimit -f 1', () => {
  const server = useFakeAnthropic({ resetEachTest: true });

  it('a new batch whose record cannot be written: AUR1053, batches.json as it was', async () => {
    const d = temp();
    // The ids of earlier batches, more than the limit holds: the record with one more cannot be written.
    const earlier = Array.from({ length: 12 }, (_, i) => ({ id: `msgbatch_earlier_${i}`, custom_ids: [String(i).padStart(64, '0')] }));
    fs.mkdirSync(path.join(d, 'run'));
    fs.writeFileSync(path.join(d, 'run/batches.json'), JSON.stringify({ format: 1, batches: earlier }, null, 2) + '\n');
    const before = snapshot(d);
    const r = await underLimit(d, `
      const { openLlm, MemoryRunLog } = await import(${dist('providers/index.js')});
      const { defaultConfig } = await import(${dist('config/defaults.js')});
      const config = defaultConfig(); config.provider = 'anthropic'; config.cache.mode = 'off';
      const llm = openLlm({ root: d, config, env: { ANTHROPIC_API_KEY: ${JSON.stringify(FAKE_KEY)}, ANTHROPIC_BASE_URL: ${JSON.stringify(server.url)} }, runLog: new MemoryRunLog(), batch: { runDir: d + '/run', pollMs: 10 } });
      await llm.complete({ role: 'writer', system: 'You are the Writer.', messages: [{ role: 'user', content: 'packet' }], max_tokens: 100 });`);
    expect(server.batches.created).toHaveLength(1);
    expectRefusedWhole(d, r, before);
  }, 60_000);
});
