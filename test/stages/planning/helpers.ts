import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { World } from '../../../src/domain/world.js';
import type { CliffhangerConstraints } from '../../../src/domain/context.js';
import { episodeRef } from '../../../src/domain/context.js';
import { loadWorldOrThrow } from '../../../src/store/index.js';
import { planEpisode, readPreviousCliffhanger, type PlanningArtifacts } from '../../../src/stages/planning.js';
import { main } from '../../../src/cli/main.js';
import type { Io } from '../../../src/cli/io.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const FIXTURES = path.join(REPO, 'test/fixtures/worlds');
export const hasStarter = fs.existsSync(path.join(REPO, 'world/world.json')) && fs.existsSync(path.join(REPO, 'operators/operators.json'));

export interface Scenario {
  name: string;
  dir: string;
  episode: number;
  /** Files/folders to copy for a world repository of this scenario. */
  parts: string[];
}

const FIXTURE_PARTS = ['world', 'operators', 'seasons'];
export const scenario = (name: string, episode = 1): Scenario => ({ name, dir: path.join(FIXTURES, name), episode, parts: FIXTURE_PARTS });
export const STARTER: Scenario = { name: 'starter', dir: REPO, episode: 1, parts: ['world', 'operators', 'seasons/season_01/season_goals.json'] };

/** Every scenario the acceptance rules are tested on (the starter world once it exists). */
export function scenarios(): Scenario[] {
  return [
    ...(hasStarter ? [STARTER] : []),
    scenario('planning-base'),
    scenario('planning-few-operators'),
    scenario('planning-dead-principal', 2),
  ];
}

export async function loadScenario(s: Scenario): Promise<{ world: World; cliff: CliffhangerConstraints | null }> {
  const { world } = await loadWorldOrThrow(s.dir);
  const cliff = await readPreviousCliffhanger(s.dir, episodeRef(1, s.episode));
  return { world, cliff };
}

export async function planScenario(s: Scenario, seed?: string, world?: World): Promise<PlanningArtifacts & { world: World }> {
  const loaded = await loadScenario(s);
  const w = world ?? loaded.world;
  const ref = episodeRef(1, s.episode);
  const a = await planEpisode({ world: w, ref, seed: seed ?? ref.id, previousCliffhanger: loaded.cliff });
  return { ...a, world: w };
}

export function tempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `aureus-plan-${label}-`));
}

/** A world repository copy of a scenario in a fresh temp directory. */
export function copyScenario(s: Scenario): string {
  const dir = tempDir(s.name);
  for (const part of s.parts) fs.cpSync(path.join(s.dir, part), path.join(dir, part), { recursive: true });
  // `episode plan` validates the world as `aureus validate` does, style files included: a scenario
  // without its own style/ gets the starter kit's.
  if (!fs.existsSync(path.join(dir, 'style')) && fs.existsSync(path.join(REPO, 'style'))) fs.cpSync(path.join(REPO, 'style'), path.join(dir, 'style'), { recursive: true });
  return dir;
}

export async function runCli(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { NO_COLOR: '1' }, cwd, isTTY: false };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** Every file under dir, relative path -> content. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

const require = createRequire(import.meta.url);
type Validate = ((v: unknown) => boolean) & { errors?: unknown };
let ajv: { compile(s: object): Validate } | undefined;
const validators = new Map<string, Validate>();
/** Validate against schemas/<name>.schema.json with a strict draft 2020-12 ajv; returns the errors or null. */
export function schemaErrors(name: string, value: unknown): unknown {
  if (!ajv) {
    const Ajv2020 = require('ajv/dist/2020.js').default;
    ajv = new Ajv2020({ allErrors: true, strict: true });
  }
  let v = validators.get(name);
  if (!v) {
    v = ajv!.compile(JSON.parse(fs.readFileSync(path.join(REPO, 'schemas', `${name}.schema.json`), 'utf8')));
    validators.set(name, v);
  }
  return v(value) ? null : v.errors;
}
