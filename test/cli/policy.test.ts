import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("bosun policy check", () => {
  it("prints the decision and the statement that decided it, naming the file and index", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ policy: [{ action: "provider.use", effect: "deny", resource: "open*" }] }));
    t.write(join(t.home, "app/bosun.json"), JSON.stringify({ policy: [{ action: "provider.*", effect: "allow", resource: "*" }] }));
    const cwd = join(t.home, "app");
    const denied = await runCli(["policy", "check", "provider.use", "openai"], t.env, cwd);
    expect(denied.code).toBe(0);
    expect(denied.stdout).toBe(
      ["deny  provider.use openai", "  decided by  deny provider.use open*", "  written in  ~/.config/bosun/bosun.json policy[0] (global)", ""].join("\n"),
    );
    const allowed = JSON.parse((await runCli(["policy", "check", "provider.use", "anthropic", "--json"], t.env, cwd)).stdout);
    expect(allowed).toEqual({
      action: "provider.use",
      resource: "anthropic",
      effect: "allow",
      statement: { action: "provider.*", effect: "allow", resource: "*", file: join(t.home, "app/bosun.json"), index: 0, scope: "project" },
    });
  });

  it("says when no statement matches and the default applies", async () => {
    const t = makeTempHome();
    const result = await runCli(["policy", "check", "model.use", "openai/gpt-5.5"], t.env, t.home);
    expect(result.stdout).toBe("allow  model.use openai/gpt-5.5\n  no statement matches (0 in force), so the default applies: allow\n");
  });

  it("refuses an unknown action, and a config statement with one, naming the field", async () => {
    const t = makeTempHome();
    expect(await runCli(["policy", "check", "provider.usee", "x"], t.env, t.home)).toEqual({ code: 1, stdout: "", stderr: 'bosun: unknown action "provider.usee"; use provider.use or model.use\n' });
    const file = t.write(join(t.paths.config, "bosun.json"), '{\n  "policy": [\n    { "action": "provider.uze", "effect": "deny", "resource": "x" }\n  ]\n}');
    const bad = await runCli(["policy", "check", "provider.use", "x"], t.env, t.home);
    expect(bad.stderr).toBe(`bosun: ${file}:3: policy[0].action: unknown action; use provider.use or model.use (wildcards allowed)\n`);
  });
});
