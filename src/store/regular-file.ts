import fs from 'node:fs';

/**
 * Read a file that must be a regular file of bounded size, without ever blocking: the open is
 * non-blocking (a FIFO opens at once instead of waiting for a writer), the type is checked on the
 * open descriptor (no stat-then-open race), and nothing over `maxBytes` is read (/dev/zero never
 * ends). Throws a RegularFileError whose `reason` reads well in a diagnostic.
 */
export class RegularFileError extends Error {
  constructor(readonly reason: string, readonly code?: string) {
    super(reason);
    this.name = 'RegularFileError';
  }
}

/** open(2) flags: read only, and do not wait on a FIFO or device. */
export const NONBLOCKING_READ = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

export function describeNonRegular(st: fs.Stats): string {
  if (st.isDirectory()) return 'it is a directory';
  if (st.isFIFO()) return 'it is a named pipe (FIFO), not a regular file';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'it is a device, not a regular file';
  if (st.isSocket()) return 'it is a socket, not a regular file';
  return 'it is not a regular file';
}

export function readRegularFileSync(file: string, maxBytes: number): string {
  return readRegularFileBytesSync(file, maxBytes).toString('utf8');
}

export function readRegularFileBytesSync(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, NONBLOCKING_READ);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RegularFileError(code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code ?? String(e), code);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new RegularFileError(describeNonRegular(st));
    if (st.size > maxBytes) throw new RegularFileError(`it is ${st.size} bytes, over the ${maxBytes}-byte limit`);
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = fs.readSync(fd, buf, n, buf.length - n, null);
    if (n > maxBytes) throw new RegularFileError(`it grew over the ${maxBytes}-byte limit while being read`);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}
