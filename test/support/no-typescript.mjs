/**
 * Preloaded (`--import`) into a server process that must run compiled code only: resolving a
 * TypeScript module, or tsx, fails the start.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (/\.[cm]?ts$/.test(new URL(resolved.url).pathname) || resolved.url.includes('/node_modules/tsx/')) {
      throw new Error(`TypeScript at run time: ${resolved.url} (from ${context.parentURL})`);
    }
    return resolved;
  },
});
