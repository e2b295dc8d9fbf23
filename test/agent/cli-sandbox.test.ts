import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxedCli } from "../../src/agent/subagents/external/cli-sandbox.js";
import type { Sandbox } from "../../src/agent/sandbox/sandbox.js";
import { SpillBudget } from "../../src/agent/sandbox/spill-budget.js";

const dir = mkdtempSync(join(tmpdir(), "bosun-cli-sandbox-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sandbox(masked: Sandbox["masked"], bwrap: string | null = "/usr/bin/bwrap"): Sandbox {
  return { mode: "auto", bwrap, fallback: null, network: "off", writable: [dir], masked, env: {}, droppedEnv: [], limits: { fileBytes: 1024, sessionOutputBytes: 1024 } as Sandbox["limits"], spill: new SpillBudget(1024) };
}

describe("an agent CLI's command in the sandbox", () => {
  const work = join(dir, "worktree");
  const own = join(dir, "home", ".codex");
  const other = join(dir, "home", ".claude", ".credentials.json");
  const envFile = join(work, ".env");
  mkdirSync(work, { recursive: true });
  writeFileSync(join(dir, "claude.json"), "{}");

  it("binds its folder, the git folder, its own folders and files writable; masks the other agents' credentials and the secrets of its folder, not its own", () => {
    const command = sandboxedCli(
      { file: "codex", args: ["exec", "--json"], env: { TMPDIR: dir }, cwd: work },
      sandbox({ files: [other, envFile, join(own, "auth.json")], folders: [join(dir, "home", ".gemini")] }),
      { gitDir: join(dir, "repo", ".git"), folders: [own], files: [join(dir, "claude.json"), join(dir, "missing.json")] },
    );
    expect(command.file).toBe("/usr/bin/bwrap");
    const args = command.args.join(" ");
    expect(args).toContain(`--ro-bind / /`);
    for (const place of [work, join(dir, "repo", ".git"), own, join(dir, "claude.json"), dir]) expect(args).toContain(`--bind ${place} ${place}`);
    expect(args).not.toContain("missing.json");
    expect(args).toContain(`--ro-bind /dev/null ${other}`);
    expect(args).toContain(`--ro-bind /dev/null ${envFile}`);
    expect(args).not.toContain(`/dev/null ${join(own, "auth.json")}`);
    expect(args).toContain(`--tmpfs ${join(dir, "home", ".gemini")} --remount-ro`);
    expect(command.args.slice(-6)).toEqual(["--chdir", work, "--", "codex", "exec", "--json"]);
    expect(command.args).toContain("--unshare-pid");
    expect(command.args).not.toContain("--unshare-user");
  });

  it("leaves the command as it is without bubblewrap", () => {
    const command = { file: "codex", args: ["exec"], env: {}, cwd: work };
    expect(sandboxedCli(command, sandbox({ files: [], folders: [] }, null), { gitDir: null, folders: [], files: [] })).toBe(command);
    expect(sandboxedCli(command, undefined, { gitDir: null, folders: [], files: [] })).toBe(command);
  });
});
