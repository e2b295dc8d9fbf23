/** Who can run a sub-agent task: bosun's own loop, or one of the user's agent CLIs run headless. */
export const SUBAGENT_KINDS = ["bosun", "claude", "codex", "gemini", "opencode", "cursor", "grok"] as const;
export type SubagentKind = (typeof SUBAGENT_KINDS)[number];
export type ExternalKind = Exclude<SubagentKind, "bosun">;

export function isSubagentKind(value: string): value is SubagentKind {
  return (SUBAGENT_KINDS as readonly string[]).includes(value);
}
