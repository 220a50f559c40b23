import { runCli } from '../../src/cli/program.js';
import { inProcess } from '../../src/cli-database.js';

/** Runs the admin CLI inside the test process (as `npm run cli` does, minus process start-up), capturing its output. */
export async function runCliInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    {
      env,
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    },
    inProcess,
  );
  return { code, stdout, stderr };
}
