import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript } from './support.js';
import { fileSessionStore } from '../../src/play/store.js';
import { checkResumeCast } from '../../src/play/resume-scene.js';
import { replay } from '../../src/play/state.js';
import { loadWorldOrThrow } from '../../src/store/load.js';
import { AureusError } from '../../src/errors.js';

/**
 * checkResumeCast placed its AUR6209 diagnostics by reading the session log a second time with
 * fs.readFileSync, around the session store's reader (which refuses a FIFO without waiting), and
 * possibly in another log than the one it checked. It now places them in the text the store read.
 */
const LOG = (w: string, id: string) => path.join(w, '.aureus/sessions', id, 'turns.jsonl');

describe.skipIf(!builtCli())('play --resume: the cast check places its diagnostics in the log the store read', () => {
  const base = useWorld('resume-cast-log');

  it('does not read the file again: the log gone from disk since, the diagnostics are still at its line:column', async () => {
    const w = copyRepo(base(), 'resume-cast-log');
    expect((await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'g1'], w, 'Hello Catiline\n')).code).toBe(0);
    fs.writeFileSync(LOG(w, 'g1'), fs.readFileSync(LOG(w, 'g1'), 'utf8').replace('"cast":["catiline"]', '"cast":["ghost"]'));
    const log = fileSessionStore(w).readLog('g1');
    const col = log.text.indexOf('"ghost"') + 1;
    // What happens to the file after the store's read is not what the check reports on.
    fs.rmSync(LOG(w, 'g1'));
    const { world } = await loadWorldOrThrow(w);
    let caught: unknown;
    try {
      checkResumeCast('g1', log, replay(log.records).state, world);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AureusError);
    const d = (caught as AureusError).diagnostics[0]!;
    expect(d.code).toBe('AUR6209');
    expect(d.line).toBe(1);
    expect(d.column).toBe(col);
  }, 60_000);
});
