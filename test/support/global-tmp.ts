// Vitest global setup: every temporary folder a test makes (worlds, git repos, run folders, the CLI's
// own temp files) goes under one folder per test run, removed when the run ends. Tests still clean up
// after themselves where they can; this catches the ones that cannot (a killed child, a failed assertion
// before cleanup) so that repeated runs do not fill /tmp. Workers and the processes tests spawn inherit
// TMPDIR, which os.tmpdir() and git both honour.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-test-run-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    fs.rmSync(root, { recursive: true, force: true });
  };
}
