import type { DelegateMode } from "../../../runtimes/kit/delegate-mode.js";
import type { ExternalKind } from "../kinds.js";

/** What a kind needs to be started: `agents.<id>` of `bosun.json` (headless defaults with the user's values over them). */
export type HeadlessConfig = Readonly<Record<string, string | boolean>>;

/** An agent CLI's headless command line for one task, or why the kind cannot run it. */
export type HeadlessLaunch = { ok: true; args: string[]; env: Record<string, string> } | { ok: false; problem: string };

/**
 * Each kind's headless command line for `prompt` in `mode` (the mode the user allowed in
 * `agents.<id>.delegate`, never wider than the parent's): the JSON event stream the parser
 * reads, the model of `agents.<id>.model` when set, and the CLI's own way to allow only that much.
 *
 * - claude: `claude -p --output-format stream-json --verbose`, `--permission-mode default` (in `-p`
 *   nothing that needs a permission runs: reads only), `acceptEdits`, or `bypassPermissions`;
 * - codex: `codex exec --json`, `--sandbox read-only` or `workspace-write`, or
 *   `--dangerously-bypass-approvals-and-sandbox`;
 * - gemini: `gemini -o stream-json --prompt=…`, `--approval-mode default` (headless: no tool that must ask
 *   is offered), `auto_edit` or `yolo`;
 * - opencode: `opencode run --format json`, its `permission` config (`edit`, `bash`: deny or allow)
 *   through `OPENCODE_CONFIG_CONTENT`, merged with the one the user has;
 * - cursor: `agent -p --output-format stream-json`; it writes files in print mode, so it has no
 *   read-only mode; `--force` (commands without asking) only in `full`;
 * - grok: `grok -p`; it runs its tools without asking, so only `full`.
 */
export function headlessLaunch(kind: ExternalKind, config: HeadlessConfig, mode: DelegateMode, prompt: string, env: Readonly<Record<string, string | undefined>>): HeadlessLaunch {
  const model = typeof config.model === "string" && config.model.trim() !== "" ? config.model.trim() : null;
  switch (kind) {
    case "claude": {
      const permission = mode === "read-only" ? "default" : mode === "edit" ? "acceptEdits" : "bypassPermissions";
      return ok(["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", permission, ...(model ? ["--model", model] : []), "--", prompt]);
    }
    case "codex": {
      const sandbox = mode === "full" ? ["--dangerously-bypass-approvals-and-sandbox"] : ["--sandbox", mode === "edit" ? "workspace-write" : "read-only"];
      return ok(["exec", "--json", "--skip-git-repo-check", ...sandbox, ...(model ? ["--model", model] : []), "--", prompt]);
    }
    case "gemini": {
      const approval = mode === "read-only" ? "default" : mode === "edit" ? "auto_edit" : "yolo";
      // One word, so a prompt that starts with "-" is not read as an option.
      return ok(["-o", "stream-json", "--approval-mode", approval, ...(model ? ["--model", model] : []), `--prompt=${prompt}`]);
    }
    case "opencode": {
      const permission = { edit: mode === "read-only" ? "deny" : "allow", bash: mode === "full" ? "allow" : "deny", webfetch: "allow" };
      const merged = mergedOpencodeConfig(env.OPENCODE_CONFIG_CONTENT, permission);
      if (typeof merged !== "string") return merged;
      const agent = typeof config.agent === "string" && config.agent.trim() !== "" ? ["--agent", config.agent.trim()] : [];
      return ok(["run", "--format", "json", ...(model ? ["--model", model] : []), ...agent, "--", prompt], { OPENCODE_CONFIG_CONTENT: merged });
    }
    case "cursor":
      if (mode === "read-only") return { ok: false, problem: 'cursor writes files whenever it runs headless, so it has no read-only mode: set agents.cursor.delegate to "edit" or "full" in bosun.json to let it' };
      return ok(["-p", "--output-format", "stream-json", ...(mode === "full" ? ["--force"] : []), ...(model ? ["--model", model] : []), prompt]);
    case "grok":
      if (mode !== "full") return { ok: false, problem: 'grok runs its tools without asking whenever it runs headless: set agents.grok.delegate to "full" in bosun.json to let it' };
      return ok(["-p", prompt, ...(model ? ["--model", model] : [])]);
  }
}

function ok(args: string[], env: Record<string, string> = {}): HeadlessLaunch {
  return { ok: true, args, env };
}

/** The user's inline OpenCode config (if any) with bosun's permissions over it. */
function mergedOpencodeConfig(current: string | undefined, permission: Record<string, string>): string | HeadlessLaunch {
  let base: Record<string, unknown> = {};
  if (current !== undefined && current.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(current);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      base = parsed as Record<string, unknown>;
    } catch {
      return { ok: false, problem: "OPENCODE_CONFIG_CONTENT is not a JSON object, so bosun cannot add its permissions to it: fix or unset it" };
    }
  }
  return JSON.stringify({ ...base, permission });
}
