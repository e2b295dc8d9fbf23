import type { BosunPaths, Env } from "../boot/paths.js";
import { nodeFileReader } from "./detect/node-file-reader.js";
import { probeTcp } from "./tcp-probe.js";
import type { DetectionContext } from "./types.js";

/** The real detection context: this machine's files and network, for the given environment. */
export function machineDetectionContext(env: Env, paths: Pick<BosunPaths, "home" | "data">, cwd: string = process.cwd()): DetectionContext {
  return { env, home: paths.home, cwd, dataDir: paths.data, files: nodeFileReader, probeSocket: probeTcp };
}
