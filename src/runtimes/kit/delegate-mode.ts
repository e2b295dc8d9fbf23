/**
 * What an agent may do when bosun's own agent runs it as a sub-agent, as the user allows it in
 * `bosun.json` `agents.<id>.delegate`: `read-only` (the default: it reads and answers), `edit` (it
 * edits files in its working folder without asking), `full` (edits and commands without asking,
 * the agent's own bypass-permissions mode).
 */
export const DELEGATE_MODES = ["read-only", "edit", "full"] as const;
export type DelegateMode = (typeof DELEGATE_MODES)[number];
