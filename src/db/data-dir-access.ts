import { accessSync, constants, mkdirSync } from 'node:fs';

/** DATA_DIR cannot hold the embedded database: one line for the operator, naming the directory and why. */
export class DataDirectoryUnusable extends Error {
  override name = 'DataDirectoryUnusable';
}

const ADVICE: Record<string, string> = {
  ENOTDIR: 'a part of the path is a file, not a directory',
  EACCES: 'this process may not write there',
  EPERM: 'this process may not write there',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EEXIST: 'a file of that name exists',
};

/**
 * Makes the embedded database's directory if needed and checks that this process may write into it,
 * before PGlite tries (which fails with no word on the cause); throws DataDirectoryUnusable.
 */
export function ensureWritableDataDir(dataDir: string): void {
  try {
    // As PostgreSQL wants of its data directory: nobody else's to read (the files inside are not private).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const reason = (code && ADVICE[code]) ?? message;
    throw new DataDirectoryUnusable(`Cannot use DATA_DIR ${dataDir}: ${code ?? 'error'} (${reason})`, { cause: error });
  }
}
