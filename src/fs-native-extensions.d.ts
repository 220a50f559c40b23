/** The part of fs-native-extensions (OS advisory file locks, prebuilt) that the data-directory lock uses. */
declare module 'fs-native-extensions' {
  /** An exclusive lock on the whole file unless `shared`; false when another descriptor holds one. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
