#!/usr/bin/env node
// `node scripts/check-shape.mjs [dir…] [--json]`: the code-shape rule of the project (no file over
// 400 lines, no function over 80) checked with the TypeScript compiler API, so a function is what
// the compiler calls one (declarations, methods, accessors, constructors, arrow functions and
// function expressions), and its length runs from its first line to its closing brace.
// It reads TypeScript and JavaScript modules (.ts, .js, .mjs, …; not .d.ts, node_modules or dist).
// In a test file, the callbacks handed to describe/it/test are a suite's body, not a unit of code:
// they are exempt from the function length (the file length still counts, and so does any helper).
// Exit 0 when nothing is over, 1 when something is, 2 on bad usage. The test
// (test/scripts/check-shape.test.ts) runs it on src/, scripts/, bench/, bin/ and test/ with the
// allowlist of known exceptions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** Source files the rule reads: TypeScript (not .d.ts) and JavaScript modules. */
const SOURCE = /(?<!\.d)\.(?:ts|mts|cts|js|mjs|cjs)$/;
/** Folders that hold no source of ours: installed packages and build output. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

/** Every source file under dir, sorted so the report is stable. */
function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) out.push(...sourceFiles(full));
    } else if (SOURCE.test(name)) out.push(full);
  }
  return out;
}

/** The name a reader would search for: the declared name, or the variable/property it is bound to. */
function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText();
  }
  return '<anonymous>';
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** The test runner's grouping calls: their callbacks are a suite's or a case's body, not a unit of code. */
const SUITE_CALLS = new Set(['describe', 'it', 'test']);
const TEST_FILE = /\.test\.[cm]?[jt]s$/;

/** The callee's first name: `describe`, `it.skip`, `describe.each(rows)` and `test.concurrent` all give theirs. */
function calleeRoot(expr) {
  while (ts.isPropertyAccessExpression(expr) || ts.isCallExpression(expr)) expr = expr.expression;
  return ts.isIdentifier(expr) ? expr.text : null;
}

/** A callback handed straight to describe/it/test in a test file (exempt from the function length rule only). */
function isSuiteCallback(node, file) {
  const call = node.parent;
  return TEST_FILE.test(file) && !!call && ts.isCallExpression(call) && call.arguments.includes(node) && SUITE_CALLS.has(calleeRoot(call.expression) ?? '');
}

/** Files over MAX_FILE_LINES and functions over MAX_FUNCTION_LINES in one source text. */
export function shapeOfSource(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const lines = source.getLineAndCharacterOfPosition(source.getEnd()).line + (text.endsWith('\n') ? 0 : 1);
  const violations = [];
  if (lines > MAX_FILE_LINES) violations.push({ kind: 'file', file, name: null, line: 1, lines });
  // `within` names the enclosing functions, outermost first, so a long callback inside a long
  // function is reported (and allowlisted) together with the function that holds it.
  const visit = (node, within) => {
    if (!isFunctionLike(node) || !node.body) {
      ts.forEachChild(node, (child) => visit(child, within));
      return;
    }
    const name = functionName(node);
    const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
    const length = end - start + 1;
    if (length > MAX_FUNCTION_LINES && !isSuiteCallback(node, file)) {
      violations.push({ kind: 'function', file, name, within, line: start + 1, lines: length });
    }
    ts.forEachChild(node, (child) => visit(child, [...within, name]));
  };
  visit(source, []);
  return violations;
}

/** Every violation under the given directories, paths relative to cwd with forward slashes. */
export function checkShape(dirs, cwd = process.cwd()) {
  const violations = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(path.resolve(cwd, dir))) {
      const rel = path.relative(cwd, file).split(path.sep).join('/');
      violations.push(...shapeOfSource(rel, readFileSync(file, 'utf8')));
    }
  }
  return violations;
}

export function formatViolation(v) {
  return v.kind === 'file'
    ? `${v.file}: ${v.lines} lines (over ${MAX_FILE_LINES})`
    : `${v.file}:${v.line}: function ${[...v.within, v.name].join(' > ')} is ${v.lines} lines (over ${MAX_FUNCTION_LINES})`;
}

function main(argv) {
  const json = argv.includes('--json');
  const dirs = argv.filter((a) => a !== '--json');
  if (dirs.some((d) => d.startsWith('-'))) {
    process.stderr.write('usage: node scripts/check-shape.mjs [dir…] [--json]   (default dir: src)\n');
    return 2;
  }
  const violations = checkShape(dirs.length > 0 ? dirs : ['src']);
  if (json) process.stdout.write(`${JSON.stringify(violations, null, 2)}\n`);
  else for (const v of violations) process.stdout.write(`${formatViolation(v)}\n`);
  return violations.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
