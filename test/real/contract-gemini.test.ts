// The real Gemini CLI is the judge of the portable hook command bosun writes into a project's
// .gemini/settings.json: it runs it through a shell with GEMINI_PROJECT_DIR set, so the command
// `node "$GEMINI_PROJECT_DIR"/.gemini/hooks/<hook>/…` finds the hook's files on any machine.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { install } from "../fixtures/install.js";
import { realCli, runRealCli } from "../fixtures/real-clis.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const MODEL_401 = fileURLToPath(new URL("../fixtures/model-401-server.mjs", import.meta.url));

describe("Gemini and a project install's hook command", () => {
  it("runs the hook from \"$GEMINI_PROJECT_DIR\" in a session (against a scripted 401 model server)", async () => {
    const cli = realCli("gemini");
    const t = makeTempHome();
    const project = join(t.root, "proj");
    const pack = join(t.root, "pack");
    mkdirSync(join(pack, "hooks", "mark"), { recursive: true });
    mkdirSync(project);
    writeFileSync(join(pack, "pack.json"), JSON.stringify({ name: "marker", version: "1.0.0", description: "A hook that leaves a mark.", artifacts: { hooks: ["mark"] } }));
    writeFileSync(join(pack, "hooks", "mark.json"), JSON.stringify({ event: "session-start", command: "node {hook-dir}/mark.mjs", timeout: 10 }));
    writeFileSync(join(pack, "hooks", "mark", "mark.mjs"), 'import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.HOME + "/marker.txt", process.cwd());\n');
    await install(t, { runtimes: ["gemini"], scope: "local", cwd: project, pack });
    const settings = readFileSync(join(project, ".gemini", "settings.json"), "utf8");
    expect(settings).toContain('node \\"$GEMINI_PROJECT_DIR\\"/.gemini/hooks/mark/mark.mjs');
    expect(settings).not.toContain(t.root);
    t.write(join(t.home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
    const run = await runRealCli({ ...cli, bin: "/bin/sh" }, ["-c", 'ip link set lo up && exec node "$0" "$@"', MODEL_401, "GOOGLE_GEMINI_BASE_URL", cli.bin, "-p", "hi", "-o", "json"], {
      home: t.home,
      cwd: project,
      env: { GEMINI_API_KEY: "test-key-not-real", GEMINI_CLI_TRUST_WORKSPACE: "true" },
      timeoutMs: 150_000,
    });
    expect(run.timedOut).toBe(false);
    expect(existsSync(join(t.home, "marker.txt")), run.stdout.slice(0, 400) + run.stderr.slice(0, 400)).toBe(true);
  }, 200_000);
});
