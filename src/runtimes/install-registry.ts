import { UserError } from "../kernel/errors.js";
import { antigravity } from "./antigravity.js";
import { augment } from "./augment.js";
import { claude } from "./claude.js";
import { cline } from "./cline.js";
import { codebuddy } from "./codebuddy.js";
import { codex } from "./codex.js";
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { gemini } from "./gemini.js";
import { hermes } from "./hermes.js";
import { kilo } from "./kilo.js";
import { opencode } from "./opencode.js";
import { pi } from "./pi.js";
import { qwen } from "./qwen.js";
import { trae } from "./trae.js";
import { windsurf } from "./windsurf.js";
import type { ContractRow, InstallRuntime } from "./kit/install-types.js";
import { findById } from "./registry.js";
import { supportRow } from "./kit/support-dir.js";
import type { Runtime } from "./kit/types.js";

/**
 * Every runtime `bosun install` can put a pack into, in install order. The status registry
 * (`bosun agents`) stays separate: it lists exactly the eight agents bosun detects.
 */
const INSTALL_RUNTIMES: readonly InstallRuntime[] = [
  withInstall(claude),
  withInstall(codex),
  withInstall(gemini),
  withInstall(opencode),
  withInstall(cursor),
  copilot,
  windsurf,
  qwen,
  kilo,
  cline,
  augment,
  codebuddy,
  trae,
  withInstall(hermes),
  antigravity,
  pi,
];

export function listInstallRuntimes(): readonly InstallRuntime[] {
  return INSTALL_RUNTIMES;
}

/** A runtime id `bosun install` does not know; lists the ones it does. */
export class UnknownInstallRuntimeError extends UserError {
  override name = "UnknownInstallRuntimeError";
  constructor(
    readonly given: string,
    readonly available: string[],
  ) {
    super(`unknown runtime ${JSON.stringify(given.slice(0, 60))}; bosun installs into: ${available.join(", ")}`);
  }
}

/** The install runtime for an id (trimmed, any case). */
export function getInstallRuntime(id: string): InstallRuntime {
  const runtime = findById(INSTALL_RUNTIMES, id);
  if (!runtime) throw new UnknownInstallRuntimeError(id, INSTALL_RUNTIMES.map((candidate) => candidate.id));
  return runtime;
}

/** The runtime config contract registry: every runtime's rows, in install order (the README table and a test read it). */
export function collectContractRows(): ContractRow[] {
  return INSTALL_RUNTIMES.flatMap((runtime) => [...runtime.installSurface.contract(), supportRow(runtime)]);
}

function withInstall(runtime: Runtime): InstallRuntime {
  if (!runtime.installSurface) throw new Error(`runtime ${runtime.id} has no install facet`);
  return { id: runtime.id, title: runtime.title, installSurface: runtime.installSurface };
}
