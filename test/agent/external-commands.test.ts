import { describe, expect, it } from "vitest";
import { headlessLaunch } from "../../src/agent/subagents/external/commands.js";

describe("each agent CLI's headless command line", () => {
  const launch = (kind: Parameters<typeof headlessLaunch>[0], mode: Parameters<typeof headlessLaunch>[2], config: Record<string, string | boolean> = {}, env: Record<string, string> = {}) =>
    headlessLaunch(kind, config, mode, "fix -the bug", env);

  it("runs each in the mode allowed, its JSON stream on stdout, the prompt after -- where the CLI takes options anywhere", () => {
    expect(launch("claude", "read-only")).toEqual({ ok: true, args: ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "default", "--", "fix -the bug"], env: {} });
    expect(launch("claude", "edit", { model: "claude-sonnet-4-5" })).toMatchObject({ args: ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits", "--model", "claude-sonnet-4-5", "--", "fix -the bug"] });
    expect(launch("codex", "read-only")).toMatchObject({ args: ["exec", "--json", "--skip-git-repo-check", "--sandbox", "read-only", "--", "fix -the bug"] });
    expect(launch("codex", "full")).toMatchObject({ args: ["exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--", "fix -the bug"] });
    expect(launch("gemini", "edit")).toMatchObject({ args: ["-o", "stream-json", "--approval-mode", "auto_edit", "--prompt=fix -the bug"] });
    expect(launch("cursor", "full")).toMatchObject({ args: ["-p", "--output-format", "stream-json", "--force", "fix -the bug"] });
    expect(launch("grok", "full", { model: "grok-4" })).toMatchObject({ args: ["-p", "fix -the bug", "--model", "grok-4"] });
  });

  it("gives OpenCode its permissions through its inline config, over the user's own", () => {
    const readOnly = launch("opencode", "read-only", { agent: "build" }, { OPENCODE_CONFIG_CONTENT: '{"theme":"dark","permission":{"edit":"allow"}}' });
    expect(readOnly).toMatchObject({ ok: true, args: ["run", "--format", "json", "--agent", "build", "--", "fix -the bug"] });
    expect(JSON.parse((readOnly as { env: Record<string, string> }).env.OPENCODE_CONFIG_CONTENT!)).toEqual({ theme: "dark", permission: { edit: "deny", bash: "deny", webfetch: "allow" } });
    expect(JSON.parse((launch("opencode", "full") as { env: Record<string, string> }).env.OPENCODE_CONFIG_CONTENT!).permission).toEqual({ edit: "allow", bash: "allow", webfetch: "allow" });
    expect(launch("opencode", "edit", {}, { OPENCODE_CONFIG_CONTENT: "[1]" })).toEqual({ ok: false, problem: "OPENCODE_CONFIG_CONTENT is not a JSON object, so bosun cannot add its permissions to it: fix or unset it" });
  });

  it("refuses a mode a CLI has no headless way to keep to, saying what to set", () => {
    expect(launch("cursor", "read-only")).toEqual({ ok: false, problem: 'cursor writes files whenever it runs headless, so it has no read-only mode: set agents.cursor.delegate to "edit" or "full" in bosun.json to let it' });
    expect(launch("grok", "edit")).toEqual({ ok: false, problem: 'grok runs its tools without asking whenever it runs headless: set agents.grok.delegate to "full" in bosun.json to let it' });
  });
});
