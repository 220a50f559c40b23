import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Milliseconds per clock tick, the unit of /proc's CPU times. */
export const MS_PER_TICK = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * A process's command name and the CPU time it has used (utime + stime, every thread), in clock ticks,
 * from /proc/<pid>/stat; undefined when this machine shows no such process.
 */
export function processTicks(pid: number): { command: string; ticks: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone, or another machine's
  }
  // "pid (comm) state ppid …": comm may hold spaces, so split after its closing parenthesis.
  const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { command, ticks: Number(fields[11]) + Number(fields[12]) }; // fields 14 and 15 of proc(5)
}
