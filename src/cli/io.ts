/** Where a command line run reads its configuration and writes its output. */
export type CliIo = {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
};
