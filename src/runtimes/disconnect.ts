import { unlinkSync } from "node:fs";
import { UserError } from "../errors.js";
import { relayAgentMessage } from "./agent-message.js";
import { knownSecrets } from "./known-secrets.js";
import { runCommand, type CommandRunner } from "./run-command.js";
import type { AuthMode, DetectionContext, DisconnectPlan, Runtime, RuntimeConfig } from "./types.js";

export const LOGOUT_TIMEOUT_MS = 30_000;

/** What disconnect writes with; injectable so tests stub the agent's logout. */
export interface DisconnectTools {
  removeFile(path: string): void;
  runCommand: CommandRunner;
}

export const machineDisconnectTools: DisconnectTools = { removeFile: (path) => unlinkSync(path), runCommand };

export interface DisconnectOutcome {
  agent: string;
  removed: boolean;
  mode: Exclude<AuthMode, "">;
  /** The credential file removed, or the one the agent's logout signed out of. */
  authPath: string;
  /** Set when there was nothing left to remove. */
  message?: string;
}

/** Disconnect was refused or failed; the reason names the agent. Nothing was left half-removed. */
export class DisconnectError extends UserError {
  override name = "DisconnectError";
  constructor(
    readonly agent: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** What disconnect would do for this runtime; refuses runtimes whose store bosun cannot name. */
export async function planRuntimeDisconnect(runtime: Runtime, config: RuntimeConfig, ctx: DetectionContext): Promise<Exclude<DisconnectPlan, { action: "none" }>> {
  if (!runtime.status.planDisconnect) {
    throw new DisconnectError(runtime.id, `bosun does not disconnect ${runtime.title}: it cannot name every place its credentials live; sign out with the agent itself`);
  }
  const plan = await runtime.status.planDisconnect(config, ctx);
  if (plan.action === "none") throw new DisconnectError(runtime.id, `${runtime.title}: nothing to disconnect (${plan.reason})`);
  return plan;
}

/**
 * Carries out a disconnect plan: deletes the one file it names (a symlink is removed, not what it
 * points to), or runs the agent's own logout with a timeout and relays its complaint redacted.
 */
export async function carryOutDisconnect(
  runtime: Runtime,
  plan: Exclude<DisconnectPlan, { action: "none" }>,
  ctx: DetectionContext,
  tools: DisconnectTools = machineDisconnectTools,
): Promise<DisconnectOutcome> {
  if (plan.action === "remove-file") {
    try {
      tools.removeFile(plan.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { agent: runtime.id, removed: false, mode: plan.mode, authPath: plan.path, message: "the credentials file was already gone" };
      throw new DisconnectError(runtime.id, `${runtime.title}: cannot remove ${plan.path} (${code ?? "error"})`);
    }
    return { agent: runtime.id, removed: true, mode: plan.mode, authPath: plan.path };
  }
  const secrets = knownSecrets(ctx.env, [], ctx.files, plan.secretFiles);
  const shown = `${plan.command} ${plan.args.join(" ")}`;
  const result = await tools.runCommand(plan.command, plan.args, { env: ctx.env, cwd: ctx.cwd, timeoutMs: LOGOUT_TIMEOUT_MS });
  if (result.startError) {
    const why = result.startError === "ENOENT" ? "not found" : result.startError;
    throw new DisconnectError(runtime.id, `${runtime.title}: cannot run \`${shown}\` (${why}); install it, or remove ${plan.authPath} yourself`);
  }
  if (result.timedOut) throw new DisconnectError(runtime.id, `${runtime.title}: \`${shown}\` did not finish within ${LOGOUT_TIMEOUT_MS / 1000} s`);
  if (result.exitCode !== 0) {
    const said = relayAgentMessage(result.stderr.trim() || result.stdout, secrets);
    throw new DisconnectError(runtime.id, `${runtime.title}: \`${shown}\` failed (exit ${result.exitCode})${said ? `: ${said}` : ""}`);
  }
  return { agent: runtime.id, removed: true, mode: plan.mode, authPath: plan.authPath };
}
