import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Boot } from "../app/start.js";
import type { SubsystemStatus } from "./subsystem-status.js";

/**
 * The agent's part of `bosun status`: how many sessions there are and the latest one. Cheap:
 * one folder listing and the start of one file; no model is contacted. Without a sessions folder
 * nothing more is loaded.
 */
export async function agentStatus(boot: Boot): Promise<SubsystemStatus> {
  const [sessions, sandbox] = await Promise.all([sessionsStatus(boot), sandboxStatus(boot)]);
  if (!sandbox.problem) return { ...sessions, lines: [...(sessions.lines ?? []), sandbox.line], data: { ...sessions.data, sandbox: sandbox.data } };
  return {
    ...sessions,
    state: "attention",
    lines: [...(sessions.lines ?? []), sandbox.line],
    data: { ...sessions.data, sandbox: sandbox.data },
    next: sandbox.problem,
  };
}

/**
 * How `bosun run` would contain its tools: the mode, and whether bubblewrap works here (one
 * sandbox is started to find out, as a run does, unless a kept verdict still holds: see
 * `checkBwrap`). A problem is the thing to do next.
 */
async function sandboxStatus(boot: Boot): Promise<{ line: string; data: Record<string, unknown>; problem: string | null }> {
  const { sandboxSettings } = await import("../agent/sandbox/sandbox-settings.js");
  const settings = sandboxSettings(boot.config?.layers ?? [], boot.paths.home, boot.project?.root ?? null);
  const data = { mode: settings.mode, network: settings.network, writable: settings.writable, ignored: settings.ignored };
  if (settings.mode === "off") return { line: 'sandbox: off (sandbox.mode "off"): tool commands can change any file you can; see the README\'s Sandbox section', data: { ...data, bwrap: null, contained: false }, problem: null };
  const { sandboxReadiness } = await import("../agent/sandbox/sandbox-readiness.js");
  // The verdict the last run (or status) found, while nothing it depends on changed: no sandbox is started for status.
  const { bwrap, problem } = await sandboxReadiness(settings, boot.env, boot.project?.root ?? process.cwd(), { stateDir: boot.paths.state, trust: true });
  const network = settings.network === "off" ? "network off" : "network on";
  if (bwrap) return { line: `sandbox: ${settings.mode}: tool commands run in bubblewrap (${bwrap}), ${network}, credential files masked`, data: { ...data, bwrap, contained: true }, problem: null };
  const fallback = settings.mode === "required" ? "bosun run refuses to run tools (sandbox.mode is required)" : "tool commands run with the command checker only";
  return { line: `sandbox: ${settings.mode}: not available: ${problem}; ${fallback}`, data: { ...data, bwrap: null, contained: false, problem }, problem: `make the sandbox work: ${problem}` };
}

async function sessionsStatus(boot: Boot): Promise<SubsystemStatus> {
  const empty = {
    state: "ready",
    detail: 'no sessions yet; bosun run "…" starts the agent',
    data: { sessions: 0, lastSession: null },
    next: 'try bosun\'s own agent: bosun run "explain what this repository does"',
  } as const;
  if (!existsSync(join(boot.paths.data, "sessions"))) return { ...empty, data: { ...empty.data } };
  const { listSessionIds, sessionFile, sessionsDir, summarizeSessionFile } = await import("../agent/session/list.js");
  const dir = sessionsDir(boot.paths);
  const ids = listSessionIds(dir).sort();
  const latest = ids.length > 0 ? summarizeSessionFile(sessionFile(dir, ids[ids.length - 1]!)) : null;
  if (!latest) return { ...empty, data: { sessions: ids.length, lastSession: null } };
  return {
    state: "ready",
    detail: `${ids.length} session${ids.length === 1 ? "" : "s"}; bosun run "…" starts one, bosun sessions lists them`,
    lines: [`last: ${latest.id}  ${latest.model.providerID}/${latest.model.modelID}  ${latest.title}`],
    data: { sessions: ids.length, lastSession: { id: latest.id, updatedAt: latest.updatedAt, model: `${latest.model.providerID}/${latest.model.modelID}`, title: latest.title } },
  };
}
