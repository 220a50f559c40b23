import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root: where `src/main.ts` and `src/cli.ts` run from. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The environment of this process without the settings a test gives its child processes itself. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, DATABASE_SCHEMA: _schema, DATA_DIR: _dir, PORT: _port, OWNER_TOKEN: _token, ADMIN_TOKEN: _admin, ...rest } = process.env;
  return { ...rest, LOG_LEVEL: 'warn', ...env };
}

/** A TCP port that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A server started as `npm start` starts it, in a process of its own. */
export type ServerProcess = {
  child: ChildProcess;
  url: string;
  /** What it printed so far. */
  output(): { stdout: string; stderr: string };
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
};

export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: repoRoot,
    env: childEnv({ HOST: '127.0.0.1', ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => ({ stdout, stderr }), exited };
}

/** Polls until `ready()` holds; fails when the process ends first or after `timeoutMs`. */
export async function waitFor(server: ServerProcess, ready: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  let ended = false;
  void server.exited.then(() => (ended = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ready()) return;
    if (ended) throw new Error(`the server exited before it was ready: ${JSON.stringify(server.output())}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server was not ready within ${timeoutMs} ms: ${JSON.stringify(server.output())}`);
}

/** Ends a server process (SIGKILL unless told otherwise) and waits for it to be gone. */
export async function stopProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** Runs the admin CLI as an executable, as `npm run -s cli --` does. */
export function runCliProcess(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: repoRoot, env: childEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}
