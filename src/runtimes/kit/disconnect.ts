import { chmodSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { displayPath } from "../../kernel/paths.js";
import { UserError } from "../../kernel/errors.js";
import { relayAgentMessage } from "./agent-message.js";
import { knownSecrets } from "./known-secrets.js";
import { runCommand, type CommandRunner } from "../../kernel/run-command.js";
import { MAX_CREDENTIAL_BYTES } from "./detect/file-reader.js";
import { removeJsonMember } from "./json-member-removal.js";
import type { AuthMode, CredentialEdit, DetectionContext, DisconnectPlan, StatusRuntime, RuntimeConfig } from "./types.js";

export const LOGOUT_TIMEOUT_MS = 30_000;

/** What disconnect writes with; injectable so tests stub the agent's logout. */
export interface DisconnectTools {
  removeFile(path: string): void;
  /** A file's text (bounded); throws ENOENT when it is gone. */
  readFile(path: string): string;
  /** Replaces a file's content in one step (a temp file renamed over it, same permissions; a symlink's target is the one changed). */
  rewriteFile(path: string, text: string): void;
  runCommand: CommandRunner;
}

export const machineDisconnectTools: DisconnectTools = { removeFile: (path) => unlinkSync(path), readFile: readBounded, rewriteFile, runCommand };

function readBounded(path: string): string {
  if (statSync(path).size > MAX_CREDENTIAL_BYTES) throw Object.assign(new Error("too large"), { code: "EFBIG" });
  return readFileSync(path, "utf8");
}

function rewriteFile(path: string, text: string): void {
  const real = realpathSync(path);
  const temp = join(dirname(real), `.${basename(real)}.bosun-${process.pid}.tmp`);
  writeFileSync(temp, text, { mode: 0o600, flag: "wx" });
  try {
    chmodSync(temp, statSync(real).mode & 0o7777);
    renameSync(temp, real);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/** The plan in a few words, for the confirmation question ("delete ~/.claude/.credentials.json"). */
export function describeDisconnectPlan(plan: Exclude<DisconnectPlan, { action: "none" }>, home: string): string {
  if (plan.action === "remove-file") return `delete ${displayPath(plan.path, home)}`;
  if (plan.action === "edit-credentials") return plan.edits.map((edit) => describeEdit(edit, home)).join(" and ");
  return `run \`${[plan.command, ...plan.args].join(" ")}\` (signs out of ${displayPath(plan.authPath, home)})`;
}

function describeEdit(edit: CredentialEdit, home: string): string {
  return edit.kind === "remove-file" ? `delete ${displayPath(edit.path, home)}` : `remove "${edit.key}" from ${displayPath(edit.path, home)}`;
}

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
export async function planRuntimeDisconnect(runtime: StatusRuntime, config: RuntimeConfig, ctx: DetectionContext): Promise<Exclude<DisconnectPlan, { action: "none" }>> {
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
  runtime: StatusRuntime,
  plan: Exclude<DisconnectPlan, { action: "none" }>,
  ctx: DetectionContext,
  tools: DisconnectTools = machineDisconnectTools,
): Promise<DisconnectOutcome> {
  if (plan.action === "remove-file") {
    const removed = applyEdit(runtime, { kind: "remove-file", path: plan.path }, tools);
    if (!removed) return { agent: runtime.id, removed: false, mode: plan.mode, authPath: plan.path, message: "the credentials file was already gone" };
    return { agent: runtime.id, removed: true, mode: plan.mode, authPath: plan.path };
  }
  if (plan.action === "edit-credentials") {
    // Each edit re-reads its file, so a credential that went away since the plan is skipped, not an error.
    const done = plan.edits.map((edit) => applyEdit(runtime, edit, tools)).filter(Boolean).length;
    if (done === 0) return { agent: runtime.id, removed: false, mode: plan.mode, authPath: plan.authPath, message: "the credentials were already gone" };
    return { agent: runtime.id, removed: true, mode: plan.mode, authPath: plan.authPath };
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

/** Carries out one edit; false when what it would remove is already gone. Never leaves a file half-written. */
function applyEdit(runtime: StatusRuntime, edit: CredentialEdit, tools: DisconnectTools): boolean {
  try {
    if (edit.kind === "remove-file") {
      tools.removeFile(edit.path);
      return true;
    }
    const text = tools.readFile(edit.path);
    let edited: string | undefined;
    try {
      edited = removeJsonMember(text, edit.key);
    } catch {
      throw new DisconnectError(runtime.id, `${runtime.title}: ${edit.path} is no longer a JSON object; nothing was changed`);
    }
    if (edited === undefined) return false;
    tools.rewriteFile(edit.path, edited);
    return true;
  } catch (error) {
    if (error instanceof DisconnectError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return false;
    const what = edit.kind === "remove-file" ? `remove ${edit.path}` : `remove "${edit.key}" from ${edit.path}`;
    throw new DisconnectError(runtime.id, `${runtime.title}: cannot ${what} (${code ?? "error"})`);
  }
}
