import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** The folders of a world repository that hold its world: a new repository among them would be untracked files of that world. */
const WORLD_CONTENT = new Set(['world', 'operators', 'style', 'seasons', 'schemas']);

const isDirSync = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/**
 * The world repository whose world files `dir` would sit in (the nearest enclosing git repository,
 * when it has world/ and `dir` is under one of its world folders), or null. `aureus init` and
 * `aureus import` refuse such a target (AUR7910): the new repository would be created, and that
 * world's next episode run would then refuse its untracked folder (exit 8). Elsewhere inside a
 * repository is allowed.
 */
export function enclosingWorldFolder(dir: string): { root: string; folder: string } | null {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) {
      const folder = path.relative(at, dir).split(path.sep)[0]!;
      return isDirSync(path.join(at, 'world')) && WORLD_CONTENT.has(folder) ? { root: at, folder } : null;
    }
    if (path.dirname(at) === at) return null;
  }
}
