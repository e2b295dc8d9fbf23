// The pack audit's pure logic: hooks compared with what is installed (by hook name and event),
// executables, and the settings entries that widen what an agent may do or runs — built here
// from entries constructed in the test, as the settings fragments will hand them in.
import { describe, expect, it } from "vitest";
import { auditLines } from "../../src/cli/render-audit.js";
import { bosunEventOf, buildPackAudit, hookFileEntries, matcherInConfig, type AuditRootInput } from "../../src/install/audit/pack-audit.js";
import { compareSettings, widening } from "../../src/install/audit/pack-audit-settings.js";

const plain = (_style: string, text: string) => text;

function root(overrides: Partial<AuditRootInput> = {}): AuditRootInput {
  return { runtime: "claude", title: "Claude Code", scope: "global", dir: "/h/.claude", hooks: [], installed: [], executables: [], settings: [], installedSettings: [], ...overrides };
}

describe("widening: which settings entries the audit lists", () => {
  it("permission allow rules one per rule (list entries); deny and ask rules are not listed", () => {
    expect(widening({ key: "permissions.allow", value: ["Bash(npm test:*)", "Read(~/notes/**)"], file: "settings.json" })).toEqual([
      { file: "settings.json", key: "permissions.allow", kind: "permission", value: "Bash(npm test:*)", list: true },
      { file: "settings.json", key: "permissions.allow", kind: "permission", value: "Read(~/notes/**)", list: true },
    ]);
    // As the settings fragments hand them in: one rule per entry.
    expect(widening({ key: "permissions.allow", value: "WebFetch", mode: "entry" })).toEqual([{ key: "permissions.allow", kind: "permission", value: "WebFetch", list: true }]);
    expect(widening({ key: "permissions.deny", value: ["Bash(rm:*)"] })).toEqual([]);
    expect(widening({ key: "permissions", value: { allow: ["WebFetch"], deny: ["Bash(curl:*)"], ask: ["Edit"], defaultMode: "acceptEdits" } })).toEqual([
      { key: "permissions.allow", kind: "permission", value: "WebFetch", list: true },
      { key: "permissions.defaultMode", kind: "permission", value: "acceptEdits", list: false },
    ]);
  });

  it("a status line's command, a helper command, and each environment variable", () => {
    expect(widening({ key: "statusLine", value: { type: "command", command: "node ~/.claude/gsd/statusline.js" } })).toEqual([{ key: "statusLine", kind: "command", value: "node ~/.claude/gsd/statusline.js", list: false }]);
    expect(widening({ key: "apiKeyHelper", value: "~/bin/key.sh" })).toEqual([{ key: "apiKeyHelper", kind: "command", value: "~/bin/key.sh", list: false }]);
    expect(widening({ key: "env", value: { GSD_MODE: "fast", RETRIES: 3 } })).toEqual([
      { key: "env.GSD_MODE", kind: "env", value: "GSD_MODE=fast", list: false },
      { key: "env.RETRIES", kind: "env", value: "RETRIES=3", list: false },
    ]);
    expect(widening({ key: "env.TOKEN", value: "{env:TOKEN}" })).toEqual([{ key: "env.TOKEN", kind: "env", value: "TOKEN={env:TOKEN}", list: false }]);
  });

  it("settings that neither run nor grant anything are not listed", () => {
    expect(widening({ key: "theme", value: "dark" })).toEqual([]);
    expect(widening({ key: "model", value: "opus" })).toEqual([]);
  });
});

describe("compareSettings: against the entries installed now", () => {
  it("a list entry is there or new; a value at the same key that differs is changed; one the pack dropped is removed", () => {
    const installed = [
      { file: "settings.json", key: "permissions.allow", value: "Bash(git status)", mode: "entry" as const },
      { file: "settings.json", key: "permissions.allow", value: "Bash(npm test:*)", mode: "entry" as const },
      { file: "settings.json", key: "statusLine", value: { type: "command", command: "gsd-status" } },
      { file: "settings.json", key: "env.GSD_MODE", value: "fast" },
    ];
    const desired = [
      { file: "settings.json", key: "permissions.allow", value: "Bash(git status)", mode: "entry" as const },
      { file: "settings.json", key: "permissions.allow", value: "Bash(git diff)", mode: "entry" as const },
      { file: "settings.json", key: "statusLine", value: { type: "command", command: "gsd-status --v2" } },
    ];
    expect(compareSettings(desired, installed)).toEqual({
      entries: [
        { file: "settings.json", key: "permissions.allow", kind: "permission", value: "Bash(git status)", change: "unchanged" },
        { file: "settings.json", key: "permissions.allow", kind: "permission", value: "Bash(git diff)", change: "new" },
        { file: "settings.json", key: "statusLine", kind: "command", value: "gsd-status --v2", change: "changed", was: "gsd-status" },
      ],
      removed: [
        { file: "settings.json", key: "permissions.allow", kind: "permission", value: "Bash(npm test:*)" },
        { file: "settings.json", key: "env.GSD_MODE", kind: "env", value: "GSD_MODE=fast" },
      ],
    });
  });
});

describe("buildPackAudit", () => {
  const hook = { hook: "guard", event: "PreToolUse", bosunEvent: "pre-tool", command: "/h/.claude/hooks/guard/guard.sh", file: "settings.json" };

  it("matches hooks by name and event: the same command is unchanged, another is changed (with the old one), a missing one removed", () => {
    const audit = buildPackAudit("p", [
      root({
        hooks: [hook, { ...hook, hook: "lint", event: "PostToolUse", bosunEvent: "post-tool", command: "lint --strict" }, { ...hook, hook: "guard", event: "Stop", bosunEvent: "stop", command: "x" }],
        installed: [hook, { ...hook, hook: "lint", event: "PostToolUse", bosunEvent: "post-tool", command: "lint" }, { ...hook, hook: "old", event: "SessionStart", bosunEvent: "session-start", command: "old" }],
      }),
    ]);
    expect(audit.hooks.map((entry) => [entry.hook, entry.event, entry.change, entry.was])).toEqual([
      ["guard", "PreToolUse", "unchanged", undefined],
      ["lint", "PostToolUse", "changed", "lint"],
      ["guard", "Stop", "new", undefined],
    ]);
    expect(audit.changes.removed.map((entry) => entry.hook)).toEqual(["old"]);
    expect(audit.unchanged).toBe(false);
  });

  it("settings entries go in `settings`; new and changed ones in `changes.settings`, dropped ones in `changes.removedSettings`", () => {
    const status = (command: string) => ({ key: "statusLine", value: { type: "command", command }, file: "settings.json" });
    const allow = { key: "permissions.allow", value: "Bash(git status)", file: "settings.json", mode: "entry" as const };
    const audit = buildPackAudit("p", [root({ settings: [allow, status("gsd-status --v2")], installedSettings: [allow, status("gsd-status"), { key: "env.GSD", value: "1", file: "settings.json" }] })]);
    const where = { runtime: "claude", title: "Claude Code", scope: "global", root: "/h/.claude", file: "settings.json" };
    expect(audit.settings).toEqual([
      { ...where, key: "permissions.allow", kind: "permission", value: "Bash(git status)", change: "unchanged" },
      { ...where, key: "statusLine", kind: "command", value: "gsd-status --v2", change: "changed", was: "gsd-status" },
    ]);
    expect(audit.changes.settings.map((entry) => entry.key)).toEqual(["statusLine"]);
    expect(audit.changes.removedSettings).toEqual([{ ...where, key: "env.GSD", kind: "env", value: "GSD=1" }]);
    expect(buildPackAudit("p", [root({ settings: [allow], installedSettings: [allow] })]).unchanged).toBe(true);
  });

  it("renders settings entries: in full with --dry-run, only what changed otherwise", () => {
    const allow = { key: "permissions.allow", value: ["Bash(git status)"], file: "settings.json" };
    const audit = buildPackAudit("p", [
      root({
        hooks: [hook],
        installed: [hook],
        executables: [{ rel: "hooks/guard/guard.sh", artifact: "hook guard", wasExecutable: true }],
        settings: [allow, { key: "env", value: { GSD: "1" }, file: "settings.json" }, { key: "statusLine", value: { command: "st --v2" }, file: "settings.json" }],
        installedSettings: [allow, { key: "statusLine", value: { command: "st" }, file: "settings.json" }, { key: "env.OLD", value: "x", file: "settings.json" }],
      }),
    ]);
    expect(auditLines(audit, "full", "/h", plain)).toEqual([
      "What pack p will run in your agents: 1 hook, 1 executable file, 3 settings (1 new, 1 changed, 1 removed)",
      "  Claude Code (global)  ~/.claude",
      "      hook guard: PreToolUse (pre-tool), in settings.json",
      "        /h/.claude/hooks/guard/guard.sh",
      "      executable hooks/guard/guard.sh (hook guard)",
      "      setting permissions.allow in settings.json allows Bash(git status)",
      "    + setting env.GSD in settings.json sets GSD=1",
      "    ~ setting statusLine in settings.json runs st --v2",
      "        was  st",
      "    - setting env.OLD in settings.json sets OLD=x, removed",
    ]);
    expect(auditLines(audit, "changes", "/h", plain)).toEqual([
      "What pack p will run in your agents, changed since it was installed: 1 new, 1 changed, 1 removed",
      "  Claude Code (global)  ~/.claude",
      "    + setting env.GSD in settings.json sets GSD=1",
      "    ~ setting statusLine in settings.json runs st --v2",
      "        was  st",
      "    - setting env.OLD in settings.json sets OLD=x, removed",
      "  unchanged: 1 hook, 1 executable file, 1 setting (--dry-run lists them)",
    ]);
  });

  it("nothing that runs: no lines at all", () => {
    expect(auditLines(buildPackAudit("p", [root()]), "full", "/h", plain)).toEqual([]);
  });
});

describe("helpers", () => {
  it("bosunEventOf reads a runtime's events table backwards", () => {
    const events = { "session-start": "SessionStart", stop: "sessionEnd", "session-end": "sessionEnd" };
    expect(bosunEventOf(events, "SessionStart")).toBe("session-start");
    expect(bosunEventOf(events, "sessionEnd")).toBe("stop or session-end");
    expect(bosunEventOf(events, "Notification")).toBeNull();
  });

  it("matcherInConfig finds the matcher of the nested entry that runs the command", () => {
    const config = { hooks: { PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "other" }] }, { matcher: "Bash", hooks: [{ type: "command", command: "guard" }] }], Stop: [{ hooks: [{ type: "command", command: "guard" }] }] } };
    expect(matcherInConfig(config, "PreToolUse", "guard")).toBe("Bash");
    expect(matcherInConfig(config, "Stop", "guard")).toBeUndefined();
    expect(matcherInConfig(null, "Stop", "guard")).toBeUndefined();
  });

  it("hookFileEntries reads a Copilot hook file; anything else reads as no hooks", () => {
    expect(hookFileEntries(JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: "command", bash: "echo hi", timeoutSec: 5 }] } }))).toEqual([{ event: "sessionStart", command: "echo hi" }]);
    expect(hookFileEntries("not json")).toEqual([]);
    expect(hookFileEntries(JSON.stringify({ hooks: { x: "y" } }))).toEqual([]);
  });
});
