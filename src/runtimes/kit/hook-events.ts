/**
 * bosun's canonical hook events, and each runtime's name for them. A pack's hook names one
 * canonical event; a runtime without it skips the hook with a note in the plan. Where each
 * table comes from is in the `*_HOOK_EVENTS_SOURCE` next to it (the README's hook events table
 * and the contract rows repeat it).
 */
const EVENTS = [
  "session-start",
  "session-end",
  "setup",
  "user-prompt",
  "user-prompt-expansion",
  "pre-tool",
  "post-tool",
  "post-tool-failure",
  "post-tool-batch",
  "pre-tool-selection",
  "pre-model",
  "post-model",
  "permission-request",
  "permission-denied",
  "stop",
  "stop-failure",
  "interrupt",
  "subagent-start",
  "subagent-stop",
  "pre-compact",
  "post-compact",
  "notification",
  "message-display",
  "elicitation",
  "elicitation-result",
  "file-changed",
  "cwd-changed",
  "config-change",
  "instructions-loaded",
  "worktree-create",
  "worktree-remove",
  "task-created",
  "task-completed",
  "teammate-idle",
] as const;

/** A lifecycle event a pack's hook may name; each runtime maps it to its own name. */
export type HookEvent = (typeof EVENTS)[number];
export const HOOK_EVENTS: readonly HookEvent[] = EVENTS;

/** A runtime's names for the canonical events it has. */
export type HookEventNames = Readonly<Partial<Record<HookEvent, string>>>;

/** Claude Code's names: every event its settings accept. */
export const CLAUDE_HOOK_EVENTS: HookEventNames = {
  "session-start": "SessionStart",
  "session-end": "SessionEnd",
  setup: "Setup",
  "user-prompt": "UserPromptSubmit",
  "user-prompt-expansion": "UserPromptExpansion",
  "pre-tool": "PreToolUse",
  "post-tool": "PostToolUse",
  "post-tool-failure": "PostToolUseFailure",
  "post-tool-batch": "PostToolBatch",
  "permission-request": "PermissionRequest",
  "permission-denied": "PermissionDenied",
  stop: "Stop",
  "stop-failure": "StopFailure",
  "subagent-start": "SubagentStart",
  "subagent-stop": "SubagentStop",
  "pre-compact": "PreCompact",
  "post-compact": "PostCompact",
  notification: "Notification",
  "message-display": "MessageDisplay",
  elicitation: "Elicitation",
  "elicitation-result": "ElicitationResult",
  "file-changed": "FileChanged",
  "cwd-changed": "CwdChanged",
  "config-change": "ConfigChange",
  "instructions-loaded": "InstructionsLoaded",
  "worktree-create": "WorktreeCreate",
  "worktree-remove": "WorktreeRemove",
  "task-created": "TaskCreated",
  "task-completed": "TaskCompleted",
  "teammate-idle": "TeammateIdle",
};
export const CLAUDE_HOOK_EVENTS_SOURCE = "the hook event list in the Claude Code 2.1.197 binary (the names its settings accept); SessionEnd and PreCompact registrations listed by the real CLI";

/** The events bosun had before it took every runtime's list: the ones Claude's clones are known to have at least. */
const CORE = ["session-start", "user-prompt", "pre-tool", "post-tool", "stop"] as const;

function claudeNames(events: readonly HookEvent[]): HookEventNames {
  return Object.fromEntries(events.map((event) => [event, CLAUDE_HOOK_EVENTS[event] as string]));
}

/** Codex's names (Claude's, for the events it has). */
export const CODEX_HOOK_EVENTS: HookEventNames = {
  ...claudeNames(["session-start", "session-end", "user-prompt", "pre-tool", "post-tool", "permission-request", "stop", "subagent-start", "subagent-stop", "pre-compact", "post-compact"]),
  interrupt: "Interrupt",
};
/** Codex lowers a longer timeout on these events to 3 s ("clamping SessionEnd hook timeout to 3s", hooks/list warnings). */
export const CODEX_TIMEOUT_CAPS: Readonly<Partial<Record<HookEvent, number>>> = { "session-end": 3, interrupt: 3 };
export const CODEX_HOOK_EVENTS_SOURCE = "the hook events in the Codex CLI 0.171.0 binary (its hooks.json event keys and their command input schemas); app-server hooks/list lists each";

/** Gemini CLI's own names. */
export const GEMINI_HOOK_EVENTS: HookEventNames = {
  "session-start": "SessionStart",
  "session-end": "SessionEnd",
  "user-prompt": "BeforeAgent",
  "pre-tool": "BeforeTool",
  "post-tool": "AfterTool",
  "pre-tool-selection": "BeforeToolSelection",
  "pre-model": "BeforeModel",
  "post-model": "AfterModel",
  stop: "AfterAgent",
  "pre-compact": "PreCompress",
  notification: "Notification",
};
export const GEMINI_HOOK_EVENTS_SOURCE = "the HookEventName enum in the Gemini CLI 0.61.0 bundle";

/** Qwen Code 1.x (its hooks reference lists Claude's names). */
export const QWEN_HOOK_EVENTS: HookEventNames = claudeNames([
  ...CORE,
  "session-end",
  "post-tool-failure",
  "permission-request",
  "stop-failure",
  "subagent-start",
  "subagent-stop",
  "pre-compact",
  "post-compact",
  "notification",
  "file-changed",
  "cwd-changed",
  "config-change",
  "instructions-loaded",
  "worktree-create",
  "teammate-idle",
]);
export const QWEN_HOOK_EVENTS_SOURCE = "Qwen Code's hooks reference (1.x documentation; not probed here)";

/** CodeBuddy Code 1.16+ (its hooks reference lists Claude's names). */
export const CODEBUDDY_HOOK_EVENTS: HookEventNames = claudeNames([
  ...CORE,
  "session-end",
  "setup",
  "post-tool-failure",
  "permission-request",
  "permission-denied",
  "stop-failure",
  "subagent-start",
  "subagent-stop",
  "pre-compact",
  "post-compact",
  "notification",
  "elicitation",
  "elicitation-result",
  "file-changed",
  "cwd-changed",
  "config-change",
  "instructions-loaded",
  "worktree-create",
  "worktree-remove",
  "task-created",
  "task-completed",
  "teammate-idle",
]);
export const CODEBUDDY_HOOK_EVENTS_SOURCE = "CodeBuddy Code's hooks reference (1.16 documentation; not probed here)";

/** Augment's Auggie (Claude's names for the events its hooks documentation lists). */
export const AUGMENT_HOOK_EVENTS: HookEventNames = claudeNames([...CORE, "session-end"]);
export const AUGMENT_HOOK_EVENTS_SOURCE = "Augment's hooks documentation (Auggie CLI; not probed here)";

/** Cursor's camelCase names. */
export const CURSOR_HOOK_EVENTS: HookEventNames = {
  "session-start": "sessionStart",
  "session-end": "sessionEnd",
  "user-prompt": "beforeSubmitPrompt",
  "pre-tool": "preToolUse",
  "post-tool": "postToolUse",
  "post-tool-failure": "postToolUseFailure",
  stop: "stop",
  "subagent-start": "subagentStart",
  "subagent-stop": "subagentStop",
  "pre-compact": "preCompact",
};
export const CURSOR_HOOK_EVENTS_SOURCE = "Cursor's hooks documentation (the Cursor CLI is not on npm, so it was not probed)";

/** GitHub Copilot CLI's names. */
export const COPILOT_HOOK_EVENTS: HookEventNames = {
  "session-start": "sessionStart",
  "session-end": "sessionEnd",
  "user-prompt": "userPromptSubmitted",
  "pre-tool": "preToolUse",
  "post-tool": "postToolUse",
  stop: "agentStop",
  "subagent-stop": "subagentStop",
  "pre-compact": "preCompact",
  notification: "notification",
};
export const COPILOT_HOOK_EVENTS_SOURCE = "GitHub Copilot CLI's hooks reference (not probed here)";

/** Windsurf's Cascade hooks: no session events; tools are its command runs. */
export const WINDSURF_HOOK_EVENTS: HookEventNames = {
  "user-prompt": "pre_user_prompt",
  "pre-tool": "pre_run_command",
  "post-tool": "post_run_command",
  stop: "post_cascade_response",
};
export const WINDSURF_HOOK_EVENTS_SOURCE = "the anchor installer's layout for Windsurf (gsd-core 1.10, reference §20); not probed here";
