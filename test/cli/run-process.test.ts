import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BOSUN_BIN } from "../fixtures/cli.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const llm = useLlmServer();
const IDLE_RUNNER = fileURLToPath(new URL("../fixtures/idle-turn-runner.ts", import.meta.url));

function devEnv(t: ReturnType<typeof makeTempHome>): Record<string, string | undefined> {
  return { ...t.env, BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 10_000, output: 500 }) };
}

describe("bosun run as a process", () => {
  it("reads the prompt from stdin with -", async () => {
    const t = makeTempHome();
    llm.reply().text("Got it.");
    const child = spawn(process.execPath, [BOSUN_BIN, "run", "-"], { env: devEnv(t) as NodeJS.ProcessEnv, cwd: t.home });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end("a prompt\nover two lines\n");
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stdout).toBe("Got it.\n");
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain("a prompt\\nover two lines");
  });

  it("reads the prompt from a pipe when no words are given, and stops parsing flags at --", async () => {
    const t = makeTempHome();
    llm.reply().text("Piped.");
    const child = spawn(process.execPath, [BOSUN_BIN, "run"], { env: devEnv(t) as NodeJS.ProcessEnv, cwd: t.home });
    child.stdin.end("diff --git a/x b/x\n");
    expect(await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)))).toBe(0);
    expect(llm.requests.at(-1)!.prompt).toBe("diff --git a/x b/x\n");

    llm.reply().text("Dashes.");
    const dashes = spawn(process.execPath, [BOSUN_BIN, "run", "--", "explain", "what", "--json", "does"], { env: devEnv(t) as NodeJS.ProcessEnv, cwd: t.home, stdio: ["ignore", "pipe", "pipe"] });
    expect(await new Promise<number | null>((resolve) => dashes.on("exit", (c) => resolve(c)))).toBe(0);
    expect(llm.requests.at(-1)!.prompt).toBe("explain what --json does");
  });

  it("says once that it reads the prompt from stdin when a pipe stays open and silent, then reads it", async () => {
    const t = makeTempHome();
    llm.reply().text("Late, but here.");
    // stdin=PIPE, as an IDE or a parent process gives it: open, and nothing written yet.
    const child = spawn(process.execPath, [BOSUN_BIN, "run"], { env: devEnv(t) as NodeJS.ProcessEnv, cwd: t.home, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const told = new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("nothing has come yet")) resolve();
      }),
    );
    await told;
    expect(stderr).toBe("bosun: reading the prompt from stdin until it is closed; nothing has come yet (to give the prompt as words instead: bosun run fix the failing test)\n");
    expect(llm.requests).toHaveLength(0);
    child.stdin.end("the prompt, at last\n");
    expect(await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)))).toBe(0);
    expect(stdout).toBe("Late, but here.\n");
    expect(llm.requests.at(-1)!.prompt).toBe("the prompt, at last\n");
    expect(stderr.match(/nothing has come yet/g)).toHaveLength(1);
  });

  it("leaves Ctrl-C to its default when no turn runs: the process ends at once", () => {
    const t = makeTempHome();
    const idle = spawnSync(process.execPath, ["--import", "tsx", IDLE_RUNNER], { env: devEnv(t) as NodeJS.ProcessEnv, encoding: "utf8", timeout: 20_000 });
    expect(idle.stderr).toBe("");
    expect(idle.stdout).toBe("");
    expect(idle.signal).toBe("SIGINT");
  });

  it("stops a running command at once, saves the session and exits 130", async () => {
    const t = makeTempHome();
    llm.reply().tool("bash", { command: "sleep 60" });
    const child = spawn(process.execPath, [BOSUN_BIN, "run", "--yes", "wait a minute"], { env: devEnv(t) as NodeJS.ProcessEnv, cwd: t.home });
    let stderr = "";
    let interrupted = false;
    let interruptedAt = 0;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!interrupted && stderr.includes("$ sleep 60")) {
        interrupted = true;
        setTimeout(() => {
          interruptedAt = Date.now();
          child.kill("SIGINT");
        }, 200);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(Date.now() - interruptedAt).toBeLessThan(1_500);
    expect(code).toBe(130);
    expect(stderr).toContain("bosun: cancelling…");
    expect(stderr).toMatch(/bosun: cancelled; the session is saved: continue it with bosun run --session \S+ "…"/);
  });
});
