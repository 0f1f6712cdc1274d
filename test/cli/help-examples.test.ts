import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStarterWorld, REPO_ROOT } from '../support/starter-world.js';

/**
 * The examples in --help (and the hints that quote a command) name operators, secrets and threads
 * of the starter kit: a newcomer copies them into the world `aureus init` made, so every id they
 * name must exist there (an audit found `op_bribe_juror`, `op_assassinate` and `sec_catiline_debts`,
 * which never did).
 */
const SOURCES = [
  ...fs.readdirSync(path.join(REPO_ROOT, 'src/cli/commands')).map((f) => `src/cli/commands/${f}`),
  'src/stages/c-director/steering.ts',
];

describe('ids quoted in --help examples and hints', () => {
  it('every op_, sec_ and thr_ id, and every OP@actor, exists in the starter world', () => {
    const w = readStarterWorld();
    const known = new Set([...w.operators.operators.map((o) => o.id), ...w.secrets.secrets.map((s) => s.id), ...w.threads.threads.map((t) => t.id)]);
    const characters = new Set(w.characters.characters.map((c) => c.id));
    const missing: string[] = [];
    let seen = 0;
    for (const rel of SOURCES) {
      const text = fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8');
      for (const m of text.matchAll(/\b(?:op|sec|thr)_[a-z0-9_]+(?:@([a-z0-9_]+))?/g)) {
        seen++;
        const [id, actor] = m[0].split('@');
        if (!known.has(id!)) missing.push(`${rel}: ${id}`);
        if (actor && !characters.has(actor)) missing.push(`${rel}: @${actor}`);
      }
    }
    expect(seen).toBeGreaterThan(3);
    expect(missing).toEqual([]);
  });
});
