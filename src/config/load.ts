import fs from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument, visit, isMap, isPair, isScalar, type Document, type Node as YamlNode } from 'yaml';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import { CONFIG_FILE } from '../paths.js';
import { readSchema } from '../schemas/files.js';
import { escapePointerSegment, pointerSegments } from '../core/json-pointer.js';
import { decodeStrictUtf8, firstInvalidUtf8Offset, utf16Hint, utf8Breaks } from '../store/read.js';
import { validatorFor } from '../schemas/validators.js';
import { defaultConfig } from './defaults.js';
import { firstTooDeep, MAX_CONFIG_DEPTH } from './yaml-depth.js';
import { positionOf } from '../store/json-parse.js';
import { applyOverrides, checkOverrideModels } from './overrides.js';
import { modelDiagnostics } from './model-checks.js';
import type { AureusConfig, ConfigOverrides } from './types.js';

/**
 * Loading aureus.config.yaml: read safely (size, UTF-8), parse YAML with positions, refuse
 * prototype keys, validate against schemas/config.schema.json (compiled once), merge over the
 * defaults, then apply CLI overrides. Problems come back as diagnostics with line:col and a JSON
 * pointer; the caller decides whether to stop (loadConfigOrThrow does, exit 3).
 */

export interface LoadedConfig {
  config: AureusConfig;
  diagnostics: Diagnostic[];
  /** True when the world has an aureus.config.yaml (false: defaults only). */
  fromFile: boolean;
}

const MAX_BYTES = 1024 * 1024;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

let compiled: { validate: ValidateFunction; schema: Record<string, unknown> } | undefined;

/** The config schema, compiled once per process. */
export function configSchema(): { validate: ValidateFunction; schema: Record<string, unknown> } {
  if (compiled) return compiled;
  // Precompiled at build time when possible (src/schemas/specs.ts).
  compiled = { validate: validatorFor('config'), schema: readSchema('config.schema.json') };
  return compiled;
}

/**
 * aureus.config.yaml as read and checked against its schema, before CLI overrides and the model
 * checks. A run reads it once (preflight) and resolves it with its flags where it needs it.
 */
export interface ConfigFile {
  /** The file merged over the defaults (the defaults alone when the file is missing or broken). */
  base: AureusConfig;
  /** The file's own problems: unreadable, bad YAML, prototype keys, schema errors. */
  diagnostics: Diagnostic[];
  fromFile: boolean;
}

/** The config with the flags applied, and its diagnostics: the file's, then the model checks'. */
export function resolveConfig(file: ConfigFile, overrides?: ConfigOverrides): LoadedConfig {
  const config = applyOverrides(file.base, overrides);
  checkOverrideModels(config, overrides);
  return { config, diagnostics: [...file.diagnostics, ...modelDiagnostics(config)], fromFile: file.fromFile };
}

export function loadConfig(root: string, overrides?: ConfigOverrides): LoadedConfig {
  return resolveConfig(readConfigFile(root), overrides);
}

/** Reads and schema-checks aureus.config.yaml; every problem is a diagnostic, never a throw. */
export function readConfigFile(root: string): ConfigFile {
  const file = path.join(root, CONFIG_FILE);
  const diagnostics: Diagnostic[] = [];
  const finish = (base: AureusConfig, fromFile: boolean): ConfigFile => ({ base, diagnostics, fromFile });
  if (!fs.existsSync(file)) return finish(defaultConfig(), false);

  const where = { file: CONFIG_FILE };
  let text: string;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > MAX_BYTES) throw new Error(`${st.size} bytes is more than 1 MiB`);
    // The decoding of every text aureus trusts (a leading BOM dropped), store/read.ts.
    const bytes = fs.readFileSync(file);
    const decoded = decodeStrictUtf8(bytes);
    if (decoded === null) {
      // Located as the world files' AUR1003 is (store/read.ts utf8Breaks): the first bad byte's line:col, since README
      // promises every config error its place; a UTF-16 file gets the hint that says so.
      diagnostics.push(notUtf8Config(bytes));
      return finish(defaultConfig(), true);
    }
    text = decoded;
    if (text.includes('\0')) throw new Error('it contains NUL bytes (a binary file?)');
  } catch (e) {
    diagnostics.push(diag('AUR4105', { detail: (e as Error).message }, where));
    return finish(defaultConfig(), true);
  }

  const lc = new LineCounter();
  const doc = parseYaml(text, lc, diagnostics);
  if (!doc) return finish(defaultConfig(), true);

  // Prototype keys, anywhere in the tree, before anything turns the document into objects.
  visit(doc, {
    Pair(_k, pair, ancestors) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key !== undefined && FORBIDDEN_KEYS.has(key)) {
        const ptr = pointerOf(ancestors, key);
        diagnostics.push(diag('AUR4104', { key }, { ...where, pointer: ptr, ...posOf(pair.key as YamlNode, lc) }));
      }
    },
  });
  if (diagnostics.length > 0) return finish(defaultConfig(), true);

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 }) ?? {};
  } catch (e) {
    // An alias bomb ("billion laughs") or a tag that cannot be resolved.
    diagnostics.push(diag('AUR4101', { detail: (e as Error).message }, { ...where, line: 1, column: 1 }));
    return finish(defaultConfig(), true);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    diagnostics.push(diag('AUR4106', { kind: Array.isArray(data) ? 'a list' : `a ${typeof data}` }, where));
    return finish(defaultConfig(), true);
  }

  const { validate, schema } = configSchema();
  if (!validate(data)) {
    const found = (validate.errors ?? []).map((err) => schemaDiagnostic(err, doc, lc, schema));
    // In file order, as a reader scans it.
    found.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    diagnostics.push(...found);
    return finish(defaultConfig(), true);
  }
  return finish(mergeOverDefaults(data as Partial<AureusConfig>), true);
}

/** AUR4105 for a config that is not UTF-8, at its first bad byte's line:col (and offset). */
function notUtf8Config(bytes: Uint8Array): Diagnostic {
  const at = utf8Breaks(bytes)[0];
  const offset = at?.offset ?? Math.max(0, firstInvalidUtf8Offset(bytes));
  const hint = utf16Hint(bytes) ?? 're-save aureus.config.yaml as UTF-8 (most editors: "Save with encoding")';
  return diag('AUR4105', { detail: `not valid UTF-8 (first bad byte at offset ${offset})` }, { file: CONFIG_FILE, ...(at ? { line: at.line, column: at.column } : {}), hint });
}

/**
 * The YAML document, or null with its syntax errors (AUR4101): first a nesting deeper than
 * MAX_CONFIG_DEPTH, alone (what follows an unclosed bracket is noise). yaml reports one error per
 * level it gives up on, all at the same place: each distinct one is said once.
 */
function parseYaml(text: string, lc: LineCounter, diagnostics: Diagnostic[]): Document | null {
  const where = { file: CONFIG_FILE };
  const deep = firstTooDeep(text);
  if (deep !== null) {
    const at = positionOf(text, deep);
    const hint = 'the config nests at most four levels (prices.<model>.long_context.input); an unclosed { or [ nests everything after it';
    diagnostics.push(diag('AUR4101', { detail: `nested deeper than ${MAX_CONFIG_DEPTH} levels` }, { ...where, line: at.line, column: at.column, hint }));
    return null;
  }
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length === 0) return doc;
  const seen = new Set<string>();
  for (const err of doc.errors) {
    const pos = lc.linePos(err.pos[0]);
    const detail = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const key = `${pos.line}:${pos.col} ${detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push(diag('AUR4101', { detail }, { ...where, line: pos.line, column: pos.col }));
  }
  return null;
}

/** loadConfig, throwing exit 3 (invalid config) when there is any error diagnostic. */
export function loadConfigOrThrow(root: string, overrides?: ConfigOverrides): LoadedConfig {
  return configOrThrow(loadConfig(root, overrides));
}

/**
 * The config's warnings (a model at its end-of-life, AUR4010): they concern the model calls a
 * command is about to make, so `episode run`, `episode plan`, `scene rewrite` and `play` say them
 * before the first one (`validate` lists them with everything else).
 */
export function configWarnings(loaded: LoadedConfig): Diagnostic[] {
  return loaded.diagnostics.filter((d) => d.severity === 'warning');
}

/** The resolved config, or exit 3 (invalid config) when there is any error diagnostic. */
export function configOrThrow(loaded: LoadedConfig): LoadedConfig {
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    throw new AureusError(`${CONFIG_FILE} is invalid (${errors.length} error${errors.length > 1 ? 's' : ''})`, {
      exitCode: ExitCode.INVALID_WORLD,
      diagnostics: loaded.diagnostics,
    });
  }
  return loaded;
}

function mergeOverDefaults(user: Partial<AureusConfig>): AureusConfig {
  const d = defaultConfig();
  return {
    provider: user.provider ?? d.provider,
    models: { ...d.models, ...user.models },
    escalations: user.escalations ?? d.escalations,
    prices: { ...d.prices, ...user.prices },
    effort: { ...d.effort, ...user.effort },
    budgets: { ...d.budgets, ...user.budgets },
    concurrency: user.concurrency ?? d.concurrency,
    timeouts_ms: { ...d.timeouts_ms, ...user.timeouts_ms },
    max_tokens: { ...d.max_tokens, ...user.max_tokens },
    stream_roles: user.stream_roles ?? d.stream_roles,
    cache: { ...d.cache, ...user.cache },
    packets: { ...d.packets, ...user.packets },
    play: { ...d.play, ...user.play },
    chaos: user.chaos ?? d.chaos,
    verifier: { ...d.verifier, ...user.verifier },
  };
}


function pointerOf(ancestors: readonly unknown[], key: string): string {
  const segs: string[] = [];
  for (const a of ancestors) if (isPair(a) && isScalar(a.key)) segs.push(String(a.key.value));
  return '/' + [...segs, key].map(escapePointerSegment).join('/');
}

function posOf(node: YamlNode | null | undefined, lc: LineCounter): { line?: number; column?: number } {
  const off = node?.range?.[0];
  if (off === undefined) return {};
  const p = lc.linePos(off);
  return { line: p.line, column: p.col };
}

function segmentsOf(pointer: string): string[] {
  return pointerSegments(pointer);
}

/** The YAML node at a JSON pointer (the key node when asked for a key). */
function nodeAt(doc: Document, segs: string[], keyName?: string): YamlNode | undefined {
  const parent = segs.length === 0 ? doc.contents : (doc.getIn(segs, true) as unknown);
  if (keyName === undefined) return (parent as YamlNode) ?? undefined;
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === keyName);
    if (pair) return pair.key as YamlNode;
  }
  return parent as YamlNode | undefined;
}

function knownKeysAt(schema: Record<string, unknown>, segs: string[]): string[] {
  let s: Record<string, unknown> | undefined = schema;
  for (const seg of segs) {
    const props = s?.properties as Record<string, Record<string, unknown>> | undefined;
    s = props?.[seg] ?? (s?.additionalProperties as Record<string, unknown> | undefined);
  }
  return Object.keys((s?.properties as object) ?? {}).filter((k) => k !== '$schema');
}

function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) dp[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      dp[i][j] = Math.min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return dp[a.length][b.length];
}

function schemaDiagnostic(err: ErrorObject, doc: Document, lc: LineCounter, schema: Record<string, unknown>): Diagnostic {
  const segs = segmentsOf(err.instancePath);
  if (err.keyword === 'additionalProperties') {
    const key = String((err.params as { additionalProperty: string }).additionalProperty);
    const known = knownKeysAt(schema, segs);
    const best = known.map((k) => [k, editDistance(k, key)] as const).sort((a, b) => a[1] - b[1])[0];
    const suggestion = best && best[1] <= 2 ? `did you mean "${best[0]}"?` : `known keys here: ${known.join(', ')}`;
    return diag('AUR4103', { key, suggestion }, { file: CONFIG_FILE, pointer: err.instancePath + '/' + escapePointerSegment(key), ...posOf(nodeAt(doc, segs, key), lc) });
  }
  let detail = `${err.instancePath || '/'} ${err.message ?? 'is invalid'}`;
  if (err.keyword === 'enum') detail += `: ${(err.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (err.keyword === 'pattern' && err.instancePath === '/provider') detail = '/provider must be one of auto | offline | anthropic | anthropic:<model> | replay:<dir>';
  return diag('AUR4102', { detail }, { file: CONFIG_FILE, pointer: err.instancePath, ...posOf(nodeAt(doc, segs), lc) });
}
