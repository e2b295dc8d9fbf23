// The pack audit judged by the real Codex CLI (0.171.0, offline, no credentials): the hooks
// `bosun install` says the pack will run are exactly the hooks Codex's app-server lists
// (hooks/list: event, command, matcher), on a first install and after an upgrade that changes
// one command, adds a hook and drops one (the dropped one is gone from Codex's list too).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeAuditPack, type TestHook } from "../fixtures/audit-packs.js";
import { codexAppServer, stage, type Stage } from "../fixtures/conformance.js";

interface AuditedHook {
  event: string;
  command: string;
  matcher?: string;
}

/** The hooks Codex lists for the user's config, as event (Codex's hooks.json name), command and matcher. */
async function codexHooks(s: Stage): Promise<AuditedHook[]> {
  const answer = await codexAppServer(s, "hooks/list", { cwds: [s.project] });
  expect(answer, "codex app-server did not answer hooks/list").not.toBeNull();
  const entry = ((answer!.result as { data: Record<string, unknown>[] }).data[0] ?? {}) as { hooks?: { eventName: string; command: string; matcher?: string | null }[]; errors?: unknown[] };
  expect(entry.errors ?? []).toEqual([]);
  // hooks/list names events in camelCase (`preToolUse`); hooks.json, and the audit, as `PreToolUse`.
  return (entry.hooks ?? []).map((hook) => ({ event: hook.eventName[0]!.toUpperCase() + hook.eventName.slice(1), command: hook.command, ...(hook.matcher ? { matcher: hook.matcher } : {}) })).sort(byCommand);
}

/** `bosun install PACK --runtime codex --scope global --yes --json`: the hooks its audit lists. */
async function installAudited(s: Stage, pack: string): Promise<{ hooks: AuditedHook[]; removed: string[] }> {
  const result = await s.bosun(["install", pack, "--runtime", "codex", "--scope", "global", "--yes", "--json", "--no-verify"]);
  expect(result.code, result.stderr).toBe(0);
  const { audit } = JSON.parse(result.stdout);
  return {
    hooks: audit.hooks.map((hook: AuditedHook & Record<string, unknown>) => ({ event: hook.event, command: hook.command, ...(hook.matcher ? { matcher: hook.matcher } : {}) })).sort(byCommand),
    removed: audit.changes.removed.map((hook: { command: string }) => hook.command),
  };
}

const byCommand = (a: AuditedHook, b: AuditedHook) => (a.command < b.command ? -1 : a.command > b.command ? 1 : 0);

const guard: TestHook = { event: "pre-tool", matcher: "Bash", command: "{hook-dir}/guard.sh", script: { rel: "guard.sh", text: "#!/bin/sh\nexit 0\n" } };
const lint: TestHook = { event: "post-tool", matcher: "apply_patch", command: "{hook-dir}/lint.sh", script: { rel: "lint.sh", text: "#!/bin/sh\nexit 0\n" } };
const greet: TestHook = { event: "session-start", command: "echo hello" };

describe("the pack audit against the real Codex CLI", () => {
  it("lists exactly the hooks Codex loads, before and after an upgrade", { timeout: 240_000 }, async () => {
    const s = stage("codex");
    const first = await installAudited(s, writeAuditPack(join(s.t.root, "pack-1"), "1.0.0", { guard, lint, greet }));
    expect(first.hooks).toHaveLength(3);
    expect(await codexHooks(s)).toEqual(first.hooks);

    const v2 = writeAuditPack(join(s.t.root, "pack-2"), "2.0.0", { guard, lint: { ...lint, command: "{hook-dir}/lint.sh --strict" }, stop: { event: "stop", command: "echo stopped" } });
    const upgrade = await installAudited(s, v2);
    expect(upgrade.removed).toEqual(["echo hello"]);
    const listed = await codexHooks(s);
    expect(listed).toEqual(upgrade.hooks);
    expect(listed.map((hook) => hook.command)).not.toContain("echo hello");
  });
});
