import { resolve } from 'node:path';
import { restoreBackup, type RestoreReport } from '../backup/restore.js';
import { loadConfig } from '../kernel/config.js';
import type { CliIo } from './io.js';

/** `restore <file> <dir>`: restores a backup into a new data directory; prints the directory. */
export async function restoreCommand(file: string, dir: string, options: { keyFile?: string }, io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  const target = resolve(dir);
  const started = performance.now();
  const report = await restoreBackup(resolve(file), target, {
    keyFile: options.keyFile && resolve(options.keyFile),
    secretKey: config.secretKey,
    previousSecretKeys: config.previousSecretKeys,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stderr.write(`${restoredSummary(report, target, seconds)}\n`);
  io.stdout.write(`${target}\n`);
}

function restoredSummary(report: RestoreReport, target: string, seconds: string): string {
  const { manifest, counts } = report;
  const lines = [
    `restored the backup of ${manifest.createdAt} into ${target} in ${seconds} s: ${counts.users} users, ${counts.organizations} organizations, ${counts.spaces} spaces`,
  ];
  if (report.keyWritten) lines.push(`the master key is in ${report.keyWritten}`);
  else if (manifest.masterKeys.length) lines.push(`its server secrets open with SECRET_KEY: start the server with it`);
  if (report.unknown.length)
    lines.push(
      `warning: the backup comes from a newer version of the server (migrations ${report.unknown.join(', ')} are unknown here): run that version on it`,
    );
  if (report.pending.length)
    lines.push(`${report.pending.length} migrations of this version are not applied to it yet: the server applies them when it starts`);
  lines.push(`start a server on it with DATA_DIR=${target}`);
  return lines.join('\n');
}
