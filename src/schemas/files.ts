import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../paths.js';

/** The package's schema files (schemas/), read once per process: for the validators' specs and the delta fields. */
const texts = new Map<string, string>();

/** The text of a package schema file (read once per process). */
export function schemaText(file: string): string {
  let t = texts.get(file);
  if (t === undefined) {
    t = readFileSync(path.join(packageRoot(), 'schemas', file), 'utf8');
    texts.set(file, t);
  }
  return t;
}

export const readSchema = (file: string): Record<string, unknown> => JSON.parse(schemaText(file)) as Record<string, unknown>;
