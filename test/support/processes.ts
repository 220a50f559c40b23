import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root: where `src/main.ts` and `src/cli.ts` run from. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The environment of a child process: the given settings on a bare environment (as a service manager
 * gives one), so that nothing of the test run leaks in (no NODE_ENV=test, no database of this process).
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, HOME, TMPDIR } = process.env;
  const base = Object.fromEntries(Object.entries({ PATH, HOME, TMPDIR }).filter(([, value]) => value !== undefined));
  return { ...base, LOG_LEVEL: 'warn', ...env };
}

/** A port nothing listens on: bound on port 0, then released. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A server started as operators start it (`node --import tsx src/main.ts`), in a process of its own. */
export type ServerProcess = {
  child: ChildProcess;
  port: number;
  url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/**
 * Starts a server process on 127.0.0.1 (on a free port unless PORT is given): `node` with `nodeArgs`,
 * by default the TypeScript entry point through tsx.
 */
export async function spawnServer(env: Record<string, string>, nodeArgs = ['--import', 'tsx', 'src/main.ts']): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: repoRoot,
    env: childEnv({ HOST: '127.0.0.1', ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  return { child, port, url: `http://127.0.0.1:${port}`, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Polls until `ready()` holds; fails when the process ends first or after `timeoutMs`. */
export async function waitFor(server: ServerProcess, ready: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ready()) return;
    if (server.child.exitCode !== null) throw new Error(`the server exited before it was ready:\n${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server was not ready within ${timeoutMs} ms:\n${server.stderr()}`);
}

/** Ends a server process (SIGKILL unless told otherwise) and waits for it to be gone. */
export async function stopProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGKILL') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** Runs `node` (this one unless told) with `nodeArgs` in the repository root until it exits. */
export function runNodeProcess(
  nodeArgs: string[],
  env: Record<string, string>,
  node = process.execPath,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, nodeArgs, { cwd: repoRoot, env: childEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Runs the admin CLI as an executable, as `npm run -s cli --` does. */
export function runCliProcess(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return runNodeProcess(['--import', 'tsx', 'src/cli.ts', ...args], env);
}
