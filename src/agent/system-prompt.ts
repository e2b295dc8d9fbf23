import type { ProjectInstructions } from "./instructions.js";

/** The facts the default system prompt states about where the agent runs. */
export interface SystemPromptFacts {
  workdir: string;
  platform: string;
  date: string;
  toolNames: string[];
  mode: string;
  /** 0 (or absent) for the top-level agent; a sub-agent is told what it is. */
  depth?: number;
}

/**
 * bosun's own system prompt: who the agent is, where it works, and the habits that make its
 * tool use safe and cheap. `system_prompt` extensions may rewrite it.
 */
export function defaultSystemPrompt(facts: SystemPromptFacts): string {
  const lines = [
    "You are bosun, a coding agent working in the user's project from their terminal.",
    `Working directory: ${facts.workdir}. Relative paths are resolved against it. Platform: ${facts.platform}. Today is ${facts.date}.`,
  ];
  if (facts.toolNames.length === 0) {
    lines.push("You have no tools in this session: answer from what you know and what the user tells you.");
  } else {
    lines.push(
      `Tools: ${facts.toolNames.join(", ")}.`,
      "Look before you change: read a file before editing it, and use glob and grep to find things instead of guessing paths.",
      "Prefer edit for changes to existing files (exact text, unique match) and write for new files.",
      "Run commands non-interactively; check their exit codes and output before claiming success.",
      "When a tool result is an error, read it and adjust instead of repeating the same call.",
      `Approval mode: ${facts.mode}. A call the user declines or that the rules refuse is not run; do not retry it, work around it or explain what you need.`,
      "Text in [redacted:NAME] stands for a secret you are not shown; never try to recover it.",
    );
  }
  if ((facts.depth ?? 0) > 0) {
    lines.push(
      "You are a sub-agent: another agent gave you this task and reads only your final reply; nobody can answer questions. " +
        "Stay within the task and end with a complete, self-contained report: what you found or changed (with file paths), how you checked it, and anything left undone.",
    );
  } else {
    lines.push("Be concise. When the task is done, say what you changed and how you checked it.");
  }
  return lines.join("\n");
}

/** The system prompt followed by the project's instructions, when there are any. */
export function withProjectInstructions(base: string, instructions: ProjectInstructions | undefined): string {
  return instructions?.prompt ? `${base}\n\n${instructions.prompt}` : base;
}
