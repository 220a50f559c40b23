import { cpSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Copies the SDL files the server reads at start-up (src/graphql/base.graphql and every area's
 * schema.graphql) beside the compiled modules in `outDir`, which tsc leaves out.
 */
export function copySchemaFiles(outDir: string): void {
  for (const entry of readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.graphql')) continue;
    const from = join(entry.parentPath, entry.name);
    cpSync(from, join(outDir, relative(ROOT, from)));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  copySchemaFiles(process.argv[2] ?? join(ROOT, 'dist'));
}
