import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { createAskUserTool } from "../../../src/agent/tools/ask-user.js";
import { createBashTool, MAX_BASH_INLINE_CHARS } from "../../../src/agent/tools/bash.js";
import { createPlanTool } from "../../../src/agent/tools/plan.js";
import { createReadTool } from "../../../src/agent/tools/read.js";
import { makeToolBench } from "../../fixtures/tool-context.js";

const bash = createBashTool();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 3_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe("bash", () => {
  it("reports output and the exit code, in the workdir or a cwd below it", async () => {
    const t = makeToolBench();
    t.write("sub/f.txt", "");
    const ok = await t.run(bash, { command: "pwd; echo err >&2; ls" });
    expect(ok.output).toBe(`${t.workdir}\nerr\nsub\n[exit code 0]`);
    expect(ok.isError).toBe(false);
    const failed = await t.run(bash, { command: "ls; exit 3", cwd: "sub" });
    expect(failed.output).toBe("f.txt\n[exit code 3]");
    expect(failed.summary).toBe("exit 3");
    await expect(t.run(bash, { command: "true", cwd: "missing" })).rejects.toThrow("folder missing does not exist");
  });

  it("times out and kills the whole process group, grandchildren included", async () => {
    const t = makeToolBench();
    const pidFile = join(t.workdir, "child.pid");
    const result = await t.run(bash, { command: `sleep 30 & echo $! > ${pidFile}; wait`, timeout_seconds: 1 });
    expect(result.output).toBe("[stopped: timed out after 1 s]");
    expect(result.isError).toBe(true);
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(await waitFor(() => !isAlive(child))).toBe(true);
  });

  it("stops promptly when the run is aborted", async () => {
    const t = makeToolBench();
    const controller = new AbortController();
    const pidFile = join(t.workdir, "child.pid");
    const started = Date.now();
    const running = t.run(bash, { command: `sleep 60 & echo $! > ${pidFile}; wait` }, { signal: controller.signal });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    controller.abort();
    const result = await running;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.output).toBe("[stopped: cancelled by the user]");
    expect(await waitFor(() => !isAlive(Number(readFileSync(pidFile, "utf8"))))).toBe(true);
  });

  it("spills long output to a file that read can open, keeping the start and the end inline", async () => {
    const t = makeToolBench();
    const result = await t.run(bash, { command: "seq 1 20000" }, { callId: "call_big" });
    const file = join(t.spillDir, "bash-call_big.txt");
    expect(result.spillFile).toBe(file);
    expect(result.output.length).toBeLessThan(MAX_BASH_INLINE_CHARS + 500);
    expect(result.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.output).toContain(`the whole output (108894 characters) is in ${file}: read it with the read tool`);
    expect(result.output.endsWith("19999\n20000\n[exit code 0]")).toBe(true);
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(20001);
    const back = await t.run(createReadTool(), { path: file, offset: 15000, limit: 2 });
    expect(back.output).toBe(" 15000\t15000\n 15001\t15001\n(showing lines 15000-15001 of 20000; continue with offset=15002)");
  });

  it("gives the user the output's last lines, each whole", async () => {
    const t = makeToolBench();
    const short = await t.run(bash, { command: "printf 'a\\n\\nb\\nc\\nd\\ne\\n\\n'" });
    expect(short.outputTail).toEqual(["b", "c", "d", "e"]);
    expect((await t.run(bash, { command: "true" })).outputTail).toEqual([]);
    // Spilled output keeps only a window of its end: the line the window starts inside is not shown.
    const long = await t.run(bash, { command: "head -c 40000 /dev/zero | tr '\\0' x; echo; echo end" }, { callId: "call_wide" });
    expect(long.spillFile).toBeDefined();
    expect(long.outputTail).toEqual(["end"]);
  });

  it("takes the last lines from the end of the output when its spill file could not be written", async () => {
    const t = makeToolBench();
    // A FIFO where the spill file would go: bosun refuses to write through it and keeps going.
    mkdirSync(t.spillDir, { recursive: true });
    execFileSync("mkfifo", [join(t.spillDir, "bash-call_fifo.txt")]);
    const result = await t.run(bash, { command: "seq 1 20000" }, { callId: "call_fifo" });
    expect(result.spillFile).toBeUndefined();
    expect(result.output).toMatch(/the whole output \(108894 characters\) could not be saved: /);
    expect(result.output.endsWith("19999\n20000\n[exit code 0]")).toBe(true);
    expect(result.outputTail).toEqual(["19997", "19998", "19999", "20000"]);
  });

  it("gives the last lines as a terminal shows them: no control sequences, what a carriage return left", async () => {
    const t = makeToolBench();
    const result = await t.run(bash, { command: "printf '\\033[1;31mred\\033[0m bold\\n\\033]0;title\\007\\033[2K\\n10%%\\r50%%\\r100%%\\n\\ttab\\bx\\n'" });
    expect(result.outputTail).toEqual(["red bold", "100%", "  tabx"]);
  });

  it("flags dangerous commands", () => {
    const t = makeToolBench();
    expect(bash.danger!({ command: "git push --force origin main" }, t.workdir)).toMatch(/force-pushes/);
    expect(bash.danger!({ command: "npm test" }, t.workdir)).toBeNull();
  });

  it("judges a command against the workdir wherever its cwd argument starts it", () => {
    const t = makeToolBench();
    mkdirSync(join(t.workdir, "sub"));
    symlinkSync("/etc", join(t.workdir, "etc-link"));
    const danger = (command: string, cwd: string) => bash.danger!({ command, cwd }, t.workdir);
    expect(danger("touch x", "/etc")).toBe("writes outside the working directory (x)");
    expect(danger("touch x", relative(t.workdir, "/etc"))).toBe("writes outside the working directory (x)");
    expect(danger("touch x", "etc-link")).toBe("writes outside the working directory (x)");
    expect(danger("rm -r dir", "/etc")).toBe("is a recursive delete outside the working directory (dir)");
    expect(danger("rm -r work", "..")).toBe("deletes the working directory or a folder above it (work)");
    expect(danger("touch x && rm -r ../sub", "sub")).toBeNull();
    // the bench's workdir is in the temp folder, where writing is routine
    expect(danger("touch x", "..")).toBeNull();
  });
});

describe("ask_user", () => {
  const ask = createAskUserTool();

  it("is an error the model can act on when nobody is at a terminal", async () => {
    const t = makeToolBench();
    await expect(t.run(ask, { question: "Which database?" })).rejects.toThrow(/no user can answer in this session.*make the most reasonable choice yourself/);
  });

  it("asks through the terminal when there is one", async () => {
    const t = makeToolBench();
    const asked: unknown[] = [];
    const ui = { askUser: async (question: string, options: string[]) => (asked.push([question, options]), "Postgres") };
    const result = await t.run(ask, { question: "Which database?", options: ["Postgres", "SQLite"] }, { ui });
    expect(result.output).toBe("The user answered: Postgres");
    expect(asked).toEqual([["Which database?", ["Postgres", "SQLite"]]]);
  });
});

describe("plan", () => {
  const plan = createPlanTool();

  it("shows the plan to the user and echoes it to the model", async () => {
    const t = makeToolBench();
    const shown: unknown[] = [];
    const items = [
      { step: "read the code", status: "done" },
      { step: "fix the bug", status: "in_progress" },
      { step: "run the tests", status: "pending" },
    ];
    const result = await t.run(plan, { items }, { ui: { showPlan: (i) => shown.push(i) } });
    expect(result.output).toBe("Plan updated (1 of 3 done):\n[x] read the code\n[>] fix the bug\n[ ] run the tests");
    expect(shown).toEqual([items]);
  });

  it("refuses two steps in progress", async () => {
    const t = makeToolBench();
    const items = [
      { step: "a", status: "in_progress" },
      { step: "b", status: "in_progress" },
    ];
    await expect(t.run(plan, { items })).rejects.toThrow("2 steps are in_progress; mark only the step you are working on now");
    expect(plan.inputSchema.safeParse({ items: [] }).success).toBe(false);
  });
});
