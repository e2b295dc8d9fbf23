// CPU time (user + system) of the child processes this one has waited for, as `time` reports it
// for a command: Linux adds a reaped child's CPU, and that of the children it reaped, to its
// parent's. A grandchild left to init when its parent was killed is not counted, so a figure is
// at most what was used, never more.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** CPU milliseconds of every child reaped so far (and of theirs); null where there is no /proc. */
export function childCpuMs() {
  let stat;
  try {
    stat = readFileSync("/proc/self/stat", "utf8");
  } catch {
    return null;
  }
  // The fields after the command name (which may hold spaces): state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[16 - 3]) + Number(fields[17 - 3])) * 1000) / TICKS_PER_SECOND;
}
