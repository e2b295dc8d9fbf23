import { listSessionIds, sessionFile, sessionsDir, summarizeSessionFile } from "../agent/session-list.js";

import type { Boot } from "../boot/start.js";
import type { SubsystemStatus } from "./status-report.js";

/**
 * The agent's part of `bosun status`: how many sessions there are and the latest one. Cheap:
 * one folder listing and the start of one file; no model is contacted.
 */
export async function agentStatus(boot: Boot): Promise<SubsystemStatus> {
  const dir = sessionsDir(boot.paths);
  const ids = listSessionIds(dir).sort();
  const latest = ids.length > 0 ? summarizeSessionFile(sessionFile(dir, ids[ids.length - 1]!)) : null;
  const data = {
    sessions: ids.length,
    lastSession: latest ? { id: latest.id, updatedAt: latest.updatedAt, model: `${latest.model.providerID}/${latest.model.modelID}`, title: latest.title } : null,
  };
  if (!latest) return { state: "ready", detail: 'no sessions yet; bosun run "…" starts the agent', data };
  return {
    state: "ready",
    detail: `${ids.length} session${ids.length === 1 ? "" : "s"}; bosun run "…" starts one, bosun sessions lists them`,
    lines: [`last: ${latest.id}  ${latest.model.providerID}/${latest.model.modelID}  ${latest.title}`],
    data,
  };
}
