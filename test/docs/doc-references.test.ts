import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allCatalogEntries } from '../../src/diagnostics/index.js';

/**
 * The design notes under docs/ name source files, functions, diagnostic codes and environment
 * variables, and link to each other; many sessions change the code under them. This keeps the names
 * true: a renamed file, a removed function, a code that left the catalog or a dead link fails here,
 * naming the doc's line. It reads text only (no build, no CLI), so it stays well under a second.
 *
 * Not checked: docs/benchmarks.md (a measurement log: it names the code as it was at each pass) and
 * docs/world-index-proposal.md (a proposal: it names what does not exist yet).
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NOT_CHECKED = new Set(['benchmarks.md', 'world-index-proposal.md']);

/** Backticked names a doc mentions on purpose although src has no such identifier. */
const ABSENT_ON_PURPOSE: Record<string, string> = {
  globalThis: 'expressions.md: a name the expression language deliberately does not know',
  aNN: 'planning.md: the placeholder of an application id (a01, a02, …)',
  OP_BETRAYAL: 'verifier.md: an example of a model answer (an operator id in capitals) the normaliser reads',
};

interface Line {
  where: string;
  text: string;
}

function docLines(file: string): Line[] {
  const rel = path.relative(repo, file);
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((text, i) => ({ where: `${rel}:${i + 1}`, text }));
}

const docFiles = fs
  .readdirSync(path.join(repo, 'docs'))
  .filter((f) => f.endsWith('.md') && !NOT_CHECKED.has(f))
  .map((f) => path.join(repo, 'docs', f));
const docs = docFiles.flatMap(docLines);
const readme = docLines(path.join(repo, 'README.md'));

/** Every file of the repository's own folders, as repo-relative paths with forward slashes. */
const repoFiles: string[] = ['src', 'test', 'bench', 'scripts', 'schemas', 'bin', 'world', 'operators', 'style', 'seasons', 'data']
  .filter((d) => fs.existsSync(path.join(repo, d)))
  .flatMap((d) => fs.readdirSync(path.join(repo, d), { recursive: true }).map((f) => `${d}/${String(f).split(path.sep).join('/')}`));

const srcTexts = repoFiles.filter((f) => /^(src|bin)\/.*\.(ts|js)$/.test(f)).map((f) => fs.readFileSync(path.join(repo, f), 'utf8'));
const srcWords = new Set(srcTexts.flatMap((t) => t.match(/[A-Za-z_$][\w$]*/g) ?? []));
const kitWords = new Set(
  repoFiles
    .filter((f) => /^(world|operators)\/.*\.json$/.test(f))
    .flatMap((f) => fs.readFileSync(path.join(repo, f), 'utf8').match(/[A-Za-z_][\w]*/g) ?? []),
);

/** A mention is a placeholder, not a name: `seasons/season_NN/…`, `<id>`, a glob. */
const placeholder = (p: string) => /NN|<|\*|\{|…/.test(p);

/** `src/x/y.ts` and `src/x/` mentions (in or out of backticks) whose target is missing. */
function missingRootedPaths(lines: Line[]): string[] {
  const bad: string[] = [];
  for (const { where, text } of lines) {
    for (const m of text.matchAll(/\b((?:src|test|bench|scripts|schemas|bin)\/[\w./-]*[\w/])/g)) {
      const p = m[1]!.replace(/\/$/, '');
      if (!placeholder(text.slice(m.index, m.index + m[0].length + 1)) && !fs.existsSync(path.join(repo, p))) bad.push(`${where} ${m[1]}`);
    }
  }
  return bad;
}

/** `c-director/anchors.ts`, `records.ts`: a module named by its tail must be some file's tail. */
function missingModuleNames(lines: Line[]): string[] {
  const bad: string[] = [];
  for (const { where, text } of lines) {
    for (const m of text.matchAll(/(?<![\w./-])((?:[\w-]+\/)*[\w.-]+\.(?:ts|mjs))\b/g)) {
      const tail = m[1]!;
      if (!repoFiles.some((f) => f === tail || f.endsWith(`/${tail}`))) bad.push(`${where} ${tail}`);
    }
  }
  return bad;
}

/** Backticked code names (`stripControl`, `Checkpoints.save`, `recover()`, `EPISODE_INPUT_PATHS`). */
function unknownIdentifiers(lines: Line[]): string[] {
  const bad: string[] = [];
  for (const { where, text } of lines) {
    for (const m of text.matchAll(/`(?:new )?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(.*?\))?`/g)) {
      const parts = m[1]!.split('.');
      const first = parts[0]!;
      const codeLike = /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(first) || m[2] !== undefined || (parts.length > 1 && /^[A-Z][a-z]/.test(first));
      if (!codeLike || first.startsWith('AUREUS_')) continue;
      for (const p of parts) if (!srcWords.has(p) && !kitWords.has(p) && !(p in ABSENT_ON_PURPOSE)) bad.push(`${where} ${m[0]} (${p})`);
    }
  }
  return bad;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const h = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const base = h[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative markdown links (and their #anchors) that lead nowhere. */
function deadLinks(lines: Line[]): string[] {
  const bad: string[] = [];
  for (const { where, text } of lines) {
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1]!;
      if (/^[a-z]+:/.test(href)) continue;
      const [target, anchor] = href.split('#');
      const file = target ? path.resolve(repo, path.dirname(where.split(':')[0]!), target) : path.join(repo, where.split(':')[0]!);
      if (!fs.existsSync(file)) bad.push(`${where} ${href} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) bad.push(`${where} ${href} (no such heading)`);
    }
  }
  return bad;
}

describe('docs name what the code has', () => {
  it('every src/, test/, bench/, scripts/, schemas/ and bin/ path a doc names exists', () => {
    expect(missingRootedPaths(docs)).toEqual([]);
  });

  it('every module a doc names by file name (`records.ts`, `c-director/anchors.ts`) exists', () => {
    expect(missingModuleNames(docs)).toEqual([]);
  });

  it('every function, class, constant or type a doc puts in backticks exists in src', () => {
    expect(unknownIdentifiers(docs)).toEqual([]);
  });

  it('every diagnostic code the docs and README mention is in the catalog', () => {
    const known = new Set(allCatalogEntries().map((e) => e.code));
    const unknown = [...docs, ...readme].flatMap(({ where, text }) => [...text.matchAll(/AUR\d{4}/g)].filter((m) => !known.has(m[0])).map((m) => `${where} ${m[0]}`));
    expect(unknown).toEqual([]);
  });

  it('every AUREUS_ variable the docs name is read by the code, and every one the code reads is documented', () => {
    const read = new Set(srcTexts.flatMap((t) => [...t.matchAll(/\benv\.(AUREUS_\w+)/g)].map((m) => m[1]!)));
    const named = new Set([...docs, ...readme].flatMap(({ text }) => text.match(/AUREUS_\w+/g) ?? []));
    expect([...named].filter((v) => !read.has(v))).toEqual([]);
    expect([...read].filter((v) => !named.has(v))).toEqual([]);
  });

  it('every relative link of the docs and README resolves, anchors included', () => {
    expect(deadLinks([...docs, ...readme])).toEqual([]);
  });
});
