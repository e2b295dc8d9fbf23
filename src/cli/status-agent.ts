import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Boot } from "../boot/start.js";
import type { SubsystemStatus } from "./status-report.js";

/**
 * The agent's part of `bosun status`: how many sessions there are and the latest one. Cheap:
 * one folder listing and the start of one file; no model is contacted. Without a sessions folder
 * nothing more is loaded.
 */
export async function agentStatus(boot: Boot): Promise<SubsystemStatus> {
  const empty = {
    state: "ready",
    detail: 'no sessions yet; bosun run "…" starts the agent',
    data: { sessions: 0, lastSession: null },
    next: 'try bosun\'s own agent: bosun run "explain what this repository does"',
  } as const;
  if (!existsSync(join(boot.paths.data, "sessions"))) return { ...empty, data: { ...empty.data } };
  const { listSessionIds, sessionFile, sessionsDir, summarizeSessionFile } = await import("../agent/session-list.js");
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
