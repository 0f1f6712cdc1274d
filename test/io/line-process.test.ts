import { describe, expect, it } from 'vitest';
import { LineProcess } from '../../src/io/line-process.js';

// Real child processes (sh): the shared line protocol under the git port's ref reader and the sync runner.
describe('LineProcess', () => {
  it('answers each question with one line, in order, also when asked before the first answer', async () => {
    const p = LineProcess.start('sh', ['-c', 'while IFS= read -r x; do echo "got:$x"; done'])!;
    expect(p).not.toBeNull();
    const answers = await Promise.all(['a', 'b b', 'c'].map((q) => p.ask(q)));
    expect(answers).toEqual(['got:a', 'got:b b', 'got:c']);
    p.end();
  });

  it('answers undefined for a question that does not fit on one line, without sending it', async () => {
    const p = LineProcess.start('sh', ['-c', 'while IFS= read -r x; do echo "got:$x"; done'])!;
    expect(await p.ask('two\nlines')).toBeUndefined();
    expect(await p.ask('next')).toBe('got:next');
    p.end();
  });

  it('answers every waiting question undefined when the process dies, and is no longer alive', async () => {
    // Reads one line and exits without answering: the question waiting on it must not hang.
    const p = LineProcess.start('sh', ['-c', 'read -r x; exit 3'])!;
    expect(await p.ask('q')).toBeUndefined();
    expect(p.alive).toBe(false);
    expect(await p.ask('later')).toBeUndefined();
  });

  it('answers undefined when the command cannot start', async () => {
    const p = LineProcess.start('/nonexistent/aureus-no-such-program', []);
    // Node reports a missing program asynchronously (an 'error' event), so start returns an object.
    expect(p).not.toBeNull();
    expect(await p!.ask('q')).toBeUndefined();
    expect(p!.alive).toBe(false);
  });
});
