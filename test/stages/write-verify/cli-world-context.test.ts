import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/index.js';
import { main } from '../../../src/cli/main.js';
import { loadWorldOrThrow } from '../../../src/store/load.js';
import { loadStyle } from '../../../src/style/index.js';
import { packageRoot } from '../../../src/paths.js';
import { loadWorldContext, readPacket } from '../../../src/stages/f-verifier/load.js';
import { verifySource, worldVerifyContext } from '../../../src/stages/f-verifier/world-context.js';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { captureIo } from './helpers.js';

// Held-out corpus 4 (z08): `scene verify` built its own world context and dropped the characters'
// office and gender, so "the consul" or "she" could be judged otherwise through the CLI than in the
// pipeline. Both are now built by world-context.ts worldPartsContext; the starter world (the
// package root is a world repository) has both fields.
const ROOT = packageRoot();
const PACKET = path.resolve(__dirname, '..', '..', 'fixtures', 'writer-corpus', 'packets', 'SC24.json');
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aureus-svctx-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function pipelineBase() {
  const { world } = await loadWorldOrThrow(ROOT);
  return worldVerifyContext(verifySource(world), (await loadStyle(ROOT)).lexicon);
}

describe("scene verify's world context is the pipeline's", () => {
  it('holds the same characters (office and gender too), places, travel, canon, operators and claim subjects', async () => {
    const pipeline = await pipelineBase();
    const warnings: Diagnostic[] = [];
    const cli = loadWorldContext(ROOT, warnings);
    expect(warnings).toEqual([]);
    expect(cli.characters).toEqual(pipeline.characters);
    expect(cli.characters!.find((c) => c.id === 'cicero')).toMatchObject({ office: 'consul', gender: 'male' });
    expect(cli.characters!.filter((c) => c.gender === 'female').length).toBeGreaterThan(0);
    expect(cli.locations).toEqual(pipeline.locations);
    expect(cli.canon).toEqual(pipeline.canon);
    expect(cli.operators).toEqual(pipeline.operators);
    expect([...(cli.subjects ?? [])].sort()).toEqual([...pipeline.subjects!].sort());
    // Family ties by kin word ("Cicero's wife", "Servilia's half-brother"), from relationships.json, both ways.
    expect(cli.relatives).toEqual(pipeline.relatives);
    expect(pipeline.relatives!.get('cicero')!.get('wife')).toBe('terentia');
    expect(pipeline.relatives!.get('terentia')!.get('husband')).toBe('cicero');
    expect(pipeline.relatives!.get('servilia')!.get('half-brother')).toBe('cato');
    const ids = pipeline.locations!.map((l) => l.id);
    for (const a of ids) for (const b of ids) expect(cli.travelDays!(a, b), `${a} ${b}`).toBe(pipeline.travelDays!(a, b));
  });

  it('judges an answer that names a man by his office as the pipeline does', async () => {
    const packet = readPacket(PACKET);
    const cast = packet.cast.map((c) => c.name).join(', ');
    const bodies = [
      'The consul strides in through the garden door and sets down a lamp beside the couch.',
      'A lamp gutters. The consul pushes past the steward and takes the chair by the brazier.',
    ];
    for (const body of bodies) {
      const raw = `---SCENE_TEXT---\n## SC24 — INT. HOUSE OF CRASSUS - NIGHT\n\n**Cast:** ${cast}\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
      const inPipeline = verifySceneOutput(raw, { ...(await pipelineBase()), packet }).findings.map((f) => `${f.severity} ${f.code}`);
      expect(inPipeline, body).toContain('hard AUR5016');
      const scene = path.join(dir, 'answer.txt');
      await writeFile(scene, raw);
      const x = captureIo(ROOT);
      await main(['-C', ROOT, 'scene', 'verify', '--packet', PACKET, '--scene', scene, '--json'], x);
      const viaCli = (JSON.parse(x.out).findings as { severity: string; code: string }[]).map((f) => `${f.severity} ${f.code}`);
      expect(viaCli, body).toEqual(inPipeline);
    }
  });
});
