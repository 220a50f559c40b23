import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tryLock, unlock } from 'fs-native-extensions';

/** The file in the data directory whose lock says who holds the directory, and whose text names them. */
export const LOCK_FILE = 'server.lock';

/** Who holds a data directory: written into the lock file by the holder, read by whoever is refused. */
export type LockHolder = {
  pid: number;
  kind: 'server' | 'cli' | 'migrate';
  host: string;
  startedAt: string;
  /** Where a server holding the directory answers (set once it listens): the admin CLI goes there. */
  url?: string;
};

/** Refusal to open a data directory that another process holds. */
export class DataDirectoryLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      `${dataDir} is in use by ${holder ? `process ${holder.pid} (${describeKind(holder.kind)}, since ${holder.startedAt})` : 'another process'}: ` +
        'an embedded database belongs to one process at a time',
    );
    this.name = 'DataDirectoryLocked';
  }
}

const describeKind = (kind: LockHolder['kind']) => ({ server: 'a server', cli: 'the admin CLI', migrate: 'a migration run' })[kind];

/** A held data directory: the lock lasts until `release()` or the end of the process. */
export type DataDirLock = {
  readonly dataDir: string;
  holder: LockHolder;
  /** Rewrites the holder's description (a server adds its URL once it listens). */
  describe(update: Partial<LockHolder>): void;
  release(): void;
};

/**
 * Takes the embedded database's data directory for this process, or throws DataDirectoryLocked naming
 * the holder. Two PostgreSQL instances writing one directory destroy it, so this is an OS advisory
 * lock on `DATA_DIR/server.lock` (an open-file-description lock on Linux, flock elsewhere): the kernel
 * releases it when the holder ends, however it ends, so a lock left by a killed process is never
 * stale, and a second opening in the same process is refused too.
 */
export function lockDataDir(dataDir: string, kind: LockHolder['kind']): DataDirLock {
  // As PostgreSQL wants of its data directory: nobody else's to read (the files inside are not private).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  let granted = false;
  try {
    granted = tryLock(fd);
  } finally {
    if (!granted) closeSync(fd);
  }
  if (!granted) throw new DataDirectoryLocked(dataDir, currentHolder(path));

  let released = false;
  const lock: DataDirLock = {
    dataDir,
    holder: { pid: process.pid, kind, host: hostname(), startedAt: new Date().toISOString() },
    describe(update) {
      lock.holder = { ...lock.holder, ...update };
      const text = `${JSON.stringify(lock.holder)}\n`;
      ftruncateSync(fd, 0);
      writeSync(fd, text, 0);
    },
    release() {
      if (released) return;
      released = true;
      unlock(fd);
      closeSync(fd);
    },
  };
  lock.describe({});
  return lock;
}

/**
 * The holder named in a lock file that is held. A holder that has just taken the lock may not have
 * written its name yet (the file is empty, or still names a process that has ended): read again for a
 * moment before giving up.
 */
function currentHolder(path: string): LockHolder | null {
  let holder: LockHolder | null = null;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    holder = readHolder(path);
    if (holder && (holder.host !== hostname() || isRunning(holder.pid))) return holder;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
  }
  return holder;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder a lock file names, or null when it names none. */
export function readHolder(path: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return typeof holder?.pid === 'number' ? holder : null;
  } catch {
    return null;
  }
}
