import { UserError } from "../kernel/errors.js";
import { a0 } from "./a0.js";
import { antigravity } from "./antigravity.js";
import { augment } from "./augment.js";
import { claude } from "./claude.js";
import { cline } from "./cline.js";
import { codebuddy } from "./codebuddy.js";
import { codex } from "./codex.js";
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { gemini } from "./gemini.js";
import { grok } from "./grok.js";
import { hermes } from "./hermes.js";
import { kilo } from "./kilo.js";
import { opencode } from "./opencode.js";
import { pi } from "./pi.js";
import { qwen } from "./qwen.js";
import { trae } from "./trae.js";
import { windsurf } from "./windsurf.js";
import type { ContractRow } from "./kit/install-types.js";
import { supportRow } from "./kit/support-dir.js";
import { hasInstall, hasStatus, type InstallRuntime, type Runtime, type StatusRuntime } from "./kit/types.js";

/**
 * Every runtime bosun knows, each once, with whichever parts it has. Adding a runtime is one
 * module and one line here; the shared suites (test/shared/) then run it through every check of
 * its parts. The order is each view's order: `bosun install` installs into the runtimes with an
 * install part in this order (the anchor installer's), and `bosun agents` lists the runtimes with
 * a status part in it too, a0 first (it is the setup exception: Agent Zero, not a CLI).
 */
const RUNTIMES: readonly Runtime[] = [
  a0,
  claude,
  codex,
  gemini,
  opencode,
  cursor,
  copilot,
  windsurf,
  qwen,
  kilo,
  cline,
  augment,
  codebuddy,
  trae,
  hermes,
  antigravity,
  pi,
  grok,
];

const STATUS_RUNTIMES: readonly StatusRuntime[] = RUNTIMES.filter(hasStatus);
const INSTALL_RUNTIMES: readonly InstallRuntime[] = RUNTIMES.filter(hasInstall);

/** Every runtime, with whichever parts it has. */
export function listAllRuntimes(): readonly Runtime[] {
  return RUNTIMES;
}

/** The agents `bosun agents` reports: the runtimes with a status part. */
export function listRuntimes(): readonly StatusRuntime[] {
  return STATUS_RUNTIMES;
}

/** The runtimes `bosun install` can put a pack into: those with an install part. */
export function listInstallRuntimes(): readonly InstallRuntime[] {
  return INSTALL_RUNTIMES;
}

/** An agent id bosun does not know; lists the ones it does, alphabetically. */
export class UnknownRuntimeError extends UserError {
  override name = "UnknownRuntimeError";
  constructor(
    readonly given: string,
    readonly available: string[],
  ) {
    super(`unknown agent ${JSON.stringify(given.slice(0, 60))}; available: ${available.join(", ")}`);
  }
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

/** The agent for an id (trimmed, any case). */
export function getRuntime(id: string): StatusRuntime {
  const runtime = findById(STATUS_RUNTIMES, id);
  if (!runtime) throw new UnknownRuntimeError(id, STATUS_RUNTIMES.map((candidate) => candidate.id).sort());
  return runtime;
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

/** The entry of a registry with this id, as a user typed it (trimmed, any case). */
export function findById<T extends { id: string }>(list: readonly T[], id: string): T | undefined {
  const wanted = id.trim().toLowerCase();
  return list.find((candidate) => candidate.id === wanted);
}
