import { cliText, isObject, jsonLines, type CliListing, type ListedError, type ListedHook, type ListedItem } from "../listing.js";

/** The JSON-RPC ids of the two questions the probe asks `codex app-server`. */
export const SKILLS_CALL = 1;
export const HOOKS_CALL = 2;

/**
 * The conversation with `codex app-server` (JSON-RPC over stdio, one message a line): initialize,
 * and once it answers, `skills/list` and `hooks/list` for the folder. Called with the output so
 * far each time more arrives; writes each message once.
 */
export function codexSession(cwd: string): (stdout: string, write: (line: string) => void) => void {
  let asked = false;
  let greeted = false;
  return (stdout, write) => {
    if (!greeted) {
      greeted = true;
      write(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "bosun-doctor", version: "1" } } }));
    }
    if (asked || !jsonLines(stdout).some((message) => message.id === 0)) return;
    asked = true;
    write(JSON.stringify({ jsonrpc: "2.0", method: "initialized" }));
    write(JSON.stringify({ jsonrpc: "2.0", id: SKILLS_CALL, method: "skills/list", params: { cwds: [cwd], forceReload: true } }));
    write(JSON.stringify({ jsonrpc: "2.0", id: HOOKS_CALL, method: "hooks/list", params: { cwds: [cwd] } }));
  };
}

/** Both answers are in. */
export function codexAnswered(stdout: string): boolean {
  const ids = new Set(jsonLines(stdout).map((message) => message.id));
  return ids.has(SKILLS_CALL) && ids.has(HOOKS_CALL);
}

/**
 * The app-server's answers: skills (name, path, enabled) with the files it refused and why (a
 * skill without frontmatter), and hooks (event, command, source file, enabled, trust). Commands
 * are skills in Codex. A project's hooks are listed only when the project is trusted. Null when
 * the skills answer is missing or malformed.
 */
export function parseCodexAppServer(stdout: string): CliListing | null {
  const messages = jsonLines(stdout);
  const skillsAnswer = firstEntry(messages.find((message) => message.id === SKILLS_CALL));
  if (!skillsAnswer || !Array.isArray(skillsAnswer.skills)) return null;
  const skills: ListedItem[] = skillsAnswer.skills.filter(isObject).flatMap((skill) =>
    typeof skill.name === "string" ? [{ name: skill.name, ...(typeof skill.path === "string" ? { path: skill.path } : {}), ...(skill.enabled === false ? { enabled: false } : {}) }] : [],
  );
  const errors: ListedError[] = listedErrors(skillsAnswer.errors);
  const hooksAnswer = firstEntry(messages.find((message) => message.id === HOOKS_CALL));
  const hooks: ListedHook[] | undefined = hooksAnswer && Array.isArray(hooksAnswer.hooks)
    ? hooksAnswer.hooks.filter(isObject).flatMap((hook) =>
        typeof hook.eventName === "string"
          ? [{
              event: hook.eventName,
              ...(typeof hook.command === "string" ? { command: hook.command } : {}),
              ...(typeof hook.sourcePath === "string" ? { sourcePath: hook.sourcePath } : {}),
              trusted: hook.trustStatus === "trusted",
              enabled: hook.enabled !== false,
            }]
          : [],
      )
    : undefined;
  if (hooksAnswer) errors.push(...listedErrors(hooksAnswer.errors));
  return { skills, commandsAsSkills: true, ...(hooks ? { hooks } : {}), errors, projectHooksNeedTrust: true };
}

/** `result.data[0]` of an answer (the one folder asked about). */
function firstEntry(message: Record<string, unknown> | undefined): Record<string, unknown> | null {
  const result = message?.result;
  if (!isObject(result) || !Array.isArray(result.data)) return null;
  const entry: unknown = result.data[0];
  return isObject(entry) ? entry : null;
}

function listedErrors(value: unknown): ListedError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((error) => ({ ...(typeof error.path === "string" ? { path: error.path } : {}), message: cliText(error.message) }));
}
