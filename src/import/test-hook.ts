/**
 * TEST-ONLY HOOK, a named point in the middle of an import's generation, in the style of
 * `AUREUS_TEST_SIGINT_AT` in pipeline/checkpoint.ts. `AUREUS_TEST_SIGINT_AT=<name>` sends the
 * process a real SIGINT there (`AUREUS_TEST_SIGTERM_AT=<name>` a SIGTERM), through the OS and the
 * CLI's handler, and the generation then never goes on: it waits there until its thread is
 * terminated. So a test sees the import stop while its world is unfinished whatever the machine's
 * speed, and an import that only noticed the signal once the generation ended (generated in the
 * main thread, whose handler cannot run meanwhile) would wait forever instead.
 * Names: import-characters (persons, ties, relationships and secrets made; characters not yet).
 * Never set either outside tests.
 */
export function generationPoint(name: string): void {
  const signal = process.env.AUREUS_TEST_SIGINT_AT === name ? 'SIGINT' : process.env.AUREUS_TEST_SIGTERM_AT === name ? 'SIGTERM' : undefined;
  if (!signal) return;
  process.kill(process.pid, signal);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  // Short waits: terminate() stops a thread between them (it cannot interrupt one wait).
  for (;;) Atomics.wait(cell, 0, 0, 20);
}
