import { lstatSync, mkdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kernel/package-info.js";
import { runBinAsync } from "../fixtures/cli.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { APPROVED, DEVICE_AUTH_ID, startOAuthServer, USER_CODE } from "../fixtures/oauth-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

// vitest runs tests in worker threads, where process.umask() cannot be set: the real bin runs
// under a shell that sets the umask most systems have.
const UMASK_022 = { setup: "umask 022", timeoutMs: 30_000 };

function mode(path: string): string {
  return (lstatSync(path).mode & 0o777).toString(8);
}

/** The mode of each folder, by path from the home folder. */
function modes(t: TempHome, folders: string[]): Record<string, string> {
  return Object.fromEntries(folders.map((folder) => [relative(t.home, folder), mode(folder)]));
}

function devModel(t: TempHome): Record<string, string | undefined> {
  return {
    ...t.env,
    SCRIPTED_API_KEY: "sk-scripted-key-0123456789",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, apiKeyEnv: "SCRIPTED_API_KEY", context: 50_000, output: 2_000 }),
  };
}

describe("bosun's folders under umask 022", () => {
  it("creates every folder of its own private (0700) and leaves the parents it makes to the umask", async () => {
    const t = makeTempHome();
    const { config, data, cache, state } = t.paths;
    const models = await startModelsServer(readFileSync(join(packageRoot(), "assets", "providers.json"), "utf8"));
    const oauth = await startOAuthServer({ usercode: { status: 200, body: { device_auth_id: DEVICE_AUTH_ID, user_code: USER_CODE, interval: 1 } }, token: APPROVED });
    try {
      const env = { ...devModel(t), BOSUN_MODELS_URL: models.url, BOSUN_CODEX_AUTH_BASE: oauth.base };
      // status: the status cache; auth set: the data folder; run: sessions/, a spill folder and the log;
      // models refresh: the models.dev cache and the locks; agents login: runtimes/codex/; install: bin/.
      expect((await runBinAsync(["status"], env, { ...UMASK_022, cwd: t.home })).code).toBe(0);
      expect((await runBinAsync(["auth", "set", "openai"], env, { ...UMASK_022, cwd: t.home, input: "sk-openai-0123456789" })).code).toBe(0);
      llm.reply().tool("bash", { command: "seq 1 20000" }, { id: "call-spill" });
      llm.reply().text("Done.");
      const run = await runBinAsync(["run", "--yes", "count"], env, { ...UMASK_022, cwd: t.home });
      expect(run.code, run.stderr).toBe(0);
      expect((await runBinAsync(["models", "refresh"], env, { ...UMASK_022, cwd: t.home })).code).toBe(0);
      const login = await runBinAsync(["agents", "login", "codex", "--json"], env, { ...UMASK_022, cwd: t.home });
      expect(login.code, login.stderr).toBe(0);
      mkdirSync(join(t.home, ".claude"));
      const install = await runBinAsync(["install", "--runtime", "claude", "--scope", "global", "--yes"], env, { ...UMASK_022, cwd: t.home });
      expect(install.code, install.stderr).toBe(0);

      const session = /session (\S+)/.exec(run.stderr)![1]!;
      const own = [data, join(data, "sessions"), join(data, "sessions", session), join(data, "runtimes"), join(data, "runtimes", "codex"), join(data, "bin"), cache, join(cache, "models-dev"), join(cache, "status"), state, join(state, "logs"), join(state, "locks")];
      expect(modes(t, own)).toEqual(Object.fromEntries(own.map((folder) => [relative(t.home, folder), "700"])));
      const parents = [join(t.home, ".local"), join(t.home, ".local", "share"), join(t.home, ".local", "state"), join(t.home, ".cache")];
      expect(modes(t, parents)).toEqual(Object.fromEntries(parents.map((folder) => [relative(t.home, folder), "755"])));
      expect(mode(join(data, "sessions", `${session}.jsonl`))).toBe("600");
      expect(mode(join(state, "logs", "bosun.log"))).toBe("600");
      expect(readFileSync(join(state, "logs", "bosun.log"), "utf8")).toContain("agent run started");
      expect(lstatSync(config, { throwIfNoEntry: false })).toBeUndefined();
    } finally {
      await models.close();
      await oauth.close();
    }
  }, 60_000);

  it("moves a legacy home into private folders: sessions/ and cache/ keep no 0755 on the way", async () => {
    const t = makeTempHome();
    const legacy = t.paths.legacy;
    t.write(join(legacy, "settings.json"), "{}");
    t.write(join(legacy, "sessions", "old.jsonl"), "");
    t.write(join(legacy, "cache", "models.json"), "{}");
    const result = await runBinAsync(["status"], t.env, { ...UMASK_022, setup: `umask 022; chmod 755 ${legacy}/sessions ${legacy}/cache`, cwd: t.home });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("bosun: 10_legacy_layout: move ~/.bosun/sessions → ~/.local/share/bosun/sessions\n");
    expect(result.stderr).toContain("bosun: 40_private_folders: make ~/.local/share/bosun/sessions private (755 → 700)\n");
    expect(result.stderr).toContain("bosun: 40_private_folders: make ~/.cache/bosun private (755 → 700)\n");
    const { config, data, cache, state } = t.paths;
    const own = [config, data, join(data, "sessions"), cache, state];
    expect(modes(t, own)).toEqual(Object.fromEntries(own.map((folder) => [relative(t.home, folder), "700"])));

    // The next start has nothing to do and writes nothing.
    const log = readFileSync(join(state, "logs", "bosun.log"), "utf8");
    const again = await runBinAsync(["status"], t.env, { ...UMASK_022, cwd: t.home });
    expect(again.stderr).toBe("");
    expect(readFileSync(join(state, "logs", "bosun.log"), "utf8")).toBe(log);
  }, 60_000);
});
