import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Every .ts file under dir (absolute). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The relative modules a file imports, statically, by `export … from` or by `import()`, resolved under src/. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1]!);
  return specs.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)));
}

/**
 * The stages run A to H, each on what the earlier ones made: a stage folder may import an earlier
 * stage's, never a later one's (A importing C's metrics, B importing C's schemas made the folders a
 * cycle). Shared pieces belong in core/, schemas/ or domain/. And no floor below the CLI imports it.
 */
describe('module layering', () => {
  it('a stage folder imports only its own and earlier stage folders', () => {
    const wrong: string[] = [];
    for (const file of sources(path.join(SRC, 'stages'))) {
      const own = /^stages\/([a-h])-/.exec(path.relative(SRC, file))?.[1];
      if (!own) continue; // stages/*.ts run the stages: they may import any
      for (const target of importsOf(file)) {
        const letter = /^stages\/([a-h])-/.exec(target)?.[1];
        if (letter && letter > own) wrong.push(`${path.relative(SRC, file)} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('stages, pipeline, store and providers never import src/cli', () => {
    const wrong = ['stages', 'pipeline', 'store', 'providers'].flatMap((floor) =>
      sources(path.join(SRC, floor)).flatMap((file) => importsOf(file).filter((t) => t.startsWith('cli/')).map((t) => `${path.relative(SRC, file)} -> ${t}`)),
    );
    expect(wrong).toEqual([]);
  });
});
