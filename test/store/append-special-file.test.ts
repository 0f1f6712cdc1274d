import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, REPO, tempDir } from '../pipeline/world.js';

/**
 * A run log's and a play session's run log's appends (store/atomic-write.ts appendWhole,
 * appendWholeSync) opened the file with plain 'a': on a FIFO put in the log's place, open() waited
 * for a reader forever (a run hung at its first call, past Ctrl-C), and with a reader the lines went
 * into the pipe and were lost. They now refuse anything but a regular file at once, as the reads do
 * (AUR1008 there), with AUR1053 naming the file and what it is. Each case runs the built modules
 * in a child process under a timeout: the old open blocked a thread no test could get back.
 */
afterAll(cleanup);

const dist = (rel: string): string => pathToFileURL(path.join(REPO, 'dist', rel)).href;

/** Run `body` (an async function body; `file` is the path) in a child; its JSON answer, or how it hung. */
function inChild(file: string, body: string): { hung: boolean; out: Record<string, unknown> } {
  const script = `
    import fs from 'node:fs';
    import { appendWhole, appendWholeSync } from ${JSON.stringify(dist('store/atomic-write.js'))};
    import { JsonlRunLog } from ${JSON.stringify(dist('providers/run-log.js'))};
    const file = process.argv[1];
    const said = (e) => ({ message: e.message, exit: e.exitCode, diagnostics: (e.diagnostics ?? []).map((d) => ({ code: d.code, message: d.message, hint: d.hint })) });
    try { process.stdout.write(JSON.stringify(await (async () => { ${body} })() ?? { ok: true })); }
    catch (e) { process.stdout.write(JSON.stringify({ error: said(e) })); }
    process.exit(0);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { encoding: 'utf8', timeout: 8000 });
  if (r.signal) return { hung: true, out: {} };
  return { hung: false, out: JSON.parse(r.stdout || '{}') as Record<string, unknown> };
}

const refusal = (file: string, what: RegExp) => ({
  error: {
    message: `cannot write ${file}`,
    exit: 11,
    diagnostics: [{ code: 'AUR1053', message: expect.stringMatching(new RegExp(`^cannot write ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${what.source}`)), hint: `move ${file} away (Aureus writes a regular file there), then re-run` }],
  },
});

const entry = { role: 'writer', model: 'm', provider: 'p', attempt: 1, reask: 0, escalated: false, latency_ms: 1, input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0.01, stop_reason: 'end_turn' };

describe.runIf(builtCli())('appending to a log that is not a regular file', () => {
  it('a FIFO with no reader: refused at once, sync and async, and by the run log (flush), never waited on', () => {
    const fifo = path.join(tempDir('append-fifo'), 'run_log.jsonl');
    execFileSync('mkfifo', [fifo]);
    const what = /it is a named pipe \(FIFO\), not a regular file/;
    for (const body of ['appendWholeSync(file, "x\\n")', 'await appendWhole(file, "x\\n")', `const log = new JsonlRunLog(file); log.append(${JSON.stringify(entry)}); await log.flush()`]) {
      const r = inChild(fifo, body);
      expect(r.hung, body).toBe(false);
      expect(r.out, body).toEqual(refusal(fifo, what));
    }
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a FIFO that has a reader: refused, not written into the pipe', () => {
    const fifo = path.join(tempDir('append-fifo-read'), 'run_log.jsonl');
    execFileSync('mkfifo', [fifo]);
    const opened = 'fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);';
    for (const body of [`${opened} appendWholeSync(file, "x\\n")`, `${opened} await appendWhole(file, "x\\n")`]) {
      const r = inChild(fifo, body);
      expect(r.hung, body).toBe(false);
      expect(r.out, body).toEqual(refusal(fifo, /it is a named pipe \(FIFO\), not a regular file/));
    }
  });

  it('a device or a folder: refused; a regular file, new or not, is appended to whole', () => {
    expect(inChild('/dev/null', 'appendWholeSync(file, "x\\n")').out).toEqual(refusal('/dev/null', /it is a device, not a regular file/));
    const dir = tempDir('append-dir');
    expect(inChild(dir, 'await appendWhole(file, "x\\n")').out.error).toMatchObject({ exit: 11, diagnostics: [{ code: 'AUR1053' }] });
    const file = path.join(dir, 'log.jsonl');
    expect(inChild(file, 'appendWholeSync(file, "a\\n"); await appendWhole(file, "b\\n")').out).toEqual({ ok: true });
    expect(fs.readFileSync(file, 'utf8')).toBe('a\nb\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o666 & ~process.umask());
  });
});
