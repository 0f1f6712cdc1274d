/**
 * Whether a process of this id runs on this host: one test for every owner record judged by its pid
 * (the run lock, pipeline/lock.ts; a staging folder's build, staging.ts and staging-owner.ts).
 * EPERM: it exists but belongs to another user, so it is alive. Not a positive integer: no process.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
