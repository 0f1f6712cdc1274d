import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { LexiconEntry } from '../../../src/stages/e-writer/types.js';
import { travelMatrix } from '../../../src/stages/f-verifier/world-context.js';
import type { VerifyContext } from '../../../src/stages/f-verifier/context.js';
import type { Io } from '../../../src/cli/io.js';

export const FIX = path.resolve(__dirname, '../../fixtures/scenes');

/**
 * Every distinct non-empty line (trimmed) of the three real-model prose corpora's .txt files
 * (test/fixtures/prose-corpus, prose-corpus-heldout, writer-corpus): what the prose reader's
 * shortcut tests hold to the plain reading.
 */
export function corpusLines(): string[] {
  const root = path.resolve(__dirname, '../../fixtures');
  const lines = ['prose-corpus', 'prose-corpus-heldout', 'writer-corpus'].flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith('.txt'))
      .flatMap((f) => readFileSync(path.join(root, dir, f), 'utf8').split('\n')),
  );
  return [...new Set(lines.map((l) => l.trim()).filter(Boolean))];
}

export function fixture(name: string): string {
  return readFileSync(path.join(FIX, name), 'utf8');
}
export function packet(name = 'packet_villa.json'): ScenePacket {
  return JSON.parse(fixture(name)) as ScenePacket;
}
export function lexicon(): LexiconEntry[] {
  return JSON.parse(fixture('lexicon.json')) as LexiconEntry[];
}
export function ctx(p: ScenePacket = packet()): VerifyContext {
  const w = JSON.parse(fixture('world_travel.json'));
  return {
    packet: p,
    lexicon: lexicon(),
    travelDays: travelMatrix({ world: w }),
    characters: [
      { id: 'crassus', name: 'Marcus Crassus', cue: 'CRASSUS', status: 'alive', location: 'villa_crassus' },
      { id: 'cicero', name: 'Marcus Tullius Cicero', cue: 'CICERO', status: 'alive', location: 'villa_crassus' },
      { id: 'tertulla', name: 'Tertulla', cue: 'TERTULLA', status: 'alive', location: 'villa_crassus' },
      { id: 'clodius', name: 'Publius Clodius Pulcher', cue: 'CLODIUS', status: 'alive', location: 'ostia' },
      { id: 'catilina', name: 'Lucius Sergius Catilina', cue: 'CATILINA', status: 'dead', location: 'forum' },
    ],
  };
}

/** An in-memory Io for `main` (no colour), collecting what the command writes. */
export function captureIo(cwd: string): Io & { out: string; err: string } {
  const o = { out: '', err: '' };
  return Object.assign(o, {
    stdout: (t: string) => void (o.out += t),
    stderr: (t: string) => void (o.err += t),
    env: { NO_COLOR: '1' } as NodeJS.ProcessEnv,
    cwd,
    isTTY: false,
  });
}
