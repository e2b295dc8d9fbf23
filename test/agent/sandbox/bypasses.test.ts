import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { resolvePaths, type Env } from "../../../src/kernel/paths.js";
import { runCli, type CliResult } from "../../fixtures/cli.js";
import { snapshotTree } from "../../fixtures/fs-snapshot.js";
import { requestToolResults } from "../../fixtures/agent-harness.js";
import { describeSandboxed, sandboxLayout } from "../../fixtures/sandbox.js";
import { useLlmServer } from "../../fixtures/use-llm-server.js";

/**
 * The bypasses of the command checker, each as one `bosun run --yes` (the real CLI in
 * this process, its real sandbox opened from bosun.json, a scripted model on 127.0.0.1) whose
 * model asks for the attacking call and then ends. After each: the tree outside the project is
 * byte-identical, and no planted credential is in a model request, the session file, a spill
 * file, the log, or what the terminal was shown.
 */

const llm = useLlmServer();

/**
 * `required`, so a machine where bubblewrap cannot start fails these tests instead of running
 * them with the checker alone. (Set to "off" to see which of them the sandbox is what stops.)
 */
const SANDBOX_MODE = "required";

const CODEX_KEY = "sk-proj-codexPLANTEDkey0123456789abcdefXYZ";
const CODEX_TOKEN = "eyJhbGciOiJQTANTED.codex-refresh-token-5566778899";
const DB_PASSWORD = "Pl4nted-db-pw-7781zz";
const AGENT_KEY = "sk-ant-api03-PLANTEDagentKey-44556677";
const MODEL_KEY = "sk-scripted-model-key-0987654321";
const PLANTED = [CODEX_KEY, CODEX_TOKEN, DB_PASSWORD, AGENT_KEY, MODEL_KEY];

interface Attack {
  root: string;
  home: string;
  workdir: string;
  outside: string;
  env: Env;
  /** The tree beside the project (home, the folder beside it, the parent itself), as it was planted. */
  before: Record<string, string>;
}

/**
 * A planted layout under /var/tmp: a home with codex's auth.json and a .bashrc, a project with
 * a.txt, a folder beside it (f.txt, keep.txt, dir/) and `x/` in the parent. bosun's own folders
 * (config, sessions, logs) are in `bosun/` beside them, the one place outside the project bosun
 * itself writes. The env has a database URL with a password and an agent's API key.
 */
function plant(config: Record<string, unknown> = {}): Attack {
  const { root, home, workdir, outside } = sandboxLayout();
  mkdirSync(join(home, ".codex"));
  writeFileSync(join(home, ".codex", "auth.json"), JSON.stringify({ OPENAI_API_KEY: CODEX_KEY, tokens: { refresh_token: CODEX_TOKEN } }));
  writeFileSync(join(home, ".bashrc"), "# planted\n");
  writeFileSync(join(workdir, "a.txt"), "project file\n");
  writeFileSync(join(outside, "f.txt"), "sentinel f\n");
  writeFileSync(join(outside, "keep.txt"), "sentinel keep\n");
  mkdirSync(join(outside, "dir"));
  writeFileSync(join(outside, "dir", "inner.txt"), "sentinel inner\n");
  mkdirSync(join(root, "x"));
  writeFileSync(join(root, "x", "x.txt"), "sentinel x\n");
  const state = join(root, "bosun");
  const env: Env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(state, "config"),
    XDG_DATA_HOME: join(state, "data"),
    XDG_CACHE_HOME: join(state, "cache"),
    XDG_STATE_HOME: join(state, "state"),
    AGENT_ZERO_HOST: "http://127.0.0.1:1",
    BOSUN_DISABLE_MODELS_FETCH: "1",
    DATABASE_URL: `postgres://u:${DB_PASSWORD}@db.internal:5432/app`,
    ANTHROPIC_API_KEY: AGENT_KEY,
    SCRIPTED_API_KEY: MODEL_KEY,
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, apiKeyEnv: "SCRIPTED_API_KEY", context: 50_000, output: 2_000 }),
  };
  const paths = resolvePaths(env, root);
  mkdirSync(paths.config, { recursive: true, mode: 0o700 });
  writeFileSync(join(paths.config, "bosun.json"), JSON.stringify({ ...config, sandbox: { mode: SANDBOX_MODE, ...(config.sandbox as object | undefined) } }));
  return { root, home, workdir, outside, env, before: sentinels(root) };
}

/** The tree under the layout's root, without the project (the agent may write there) and bosun's own folders. */
function sentinels(root: string): Record<string, string> {
  const tree = snapshotTree(root);
  for (const path of Object.keys(tree)) {
    if (/^(project|bosun)(\/|$)/.test(path)) delete tree[path];
  }
  return tree;
}

/** Every file under `dir`, as text (none when it does not exist). */
function textsUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return names.map((name) => join(dir, name)).filter((path) => statSync(path).isFile()).map((path) => readFileSync(path, "utf8"));
}

interface Call {
  tool: string;
  args: Record<string, unknown>;
}

interface Outcome extends CliResult {
  /** What the model was sent back for each call, in order. */
  results: string[];
  /** Every place a credential could have gone: model requests, session files and spill files, the log, stdout and stderr. */
  evidence: string[];
}

/** One `bosun run --yes` whose model makes `calls` (one per turn) and then says "done". */
async function run(attack: Attack, calls: Call[]): Promise<Outcome> {
  for (const call of calls) llm.reply().tool(call.tool, call.args);
  llm.reply().text("done");
  const result = await runCli(["run", "--yes", "go"], attack.env, attack.workdir);
  const paths = resolvePaths(attack.env, attack.root);
  const results = requestToolResults(llm.requests.at(-1)!);
  const evidence = [
    result.stdout,
    result.stderr,
    ...llm.requests.map((request) => JSON.stringify(request.body)),
    ...textsUnder(join(paths.data, "sessions")),
    ...textsUnder(join(paths.state, "logs")),
  ];
  return { ...result, results, evidence };
}

/** What every attack must leave as it was: the tree outside the project, and every credential unseen. */
function expectContained(attack: Attack, outcome: Outcome): void {
  expect(sentinels(attack.root)).toEqual(attack.before);
  for (const text of outcome.evidence) {
    for (const secret of PLANTED) {
      expect(text).not.toContain(secret);
      for (const form of base64Forms(secret)) expect(text).not.toContain(form);
    }
  }
}

/** `--yes` alone (the attacks), and with the checker's questions turned off too: then only the sandbox stands. */
const SETTINGS: [string, Record<string, unknown>][] = [
  ["--yes", {}],
  ["--yes and dangerous allowed", { permissions: { dangerous: "allow" } }],
];

/**
 * How `secret` looks inside any base64 text, wherever it starts: for each of the three
 * alignments, the characters that encode only bytes of the secret.
 */
function base64Forms(secret: string): string[] {
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), Buffer.from(secret)]).toString("base64");
    return encoded.slice(shift > 0 ? 4 : 0, -4);
  });
}

const bash = (command: string, extra: Record<string, unknown> = {}): Call => ({ tool: "bash", args: { command, ...extra } });

/** One attempt to change the tree outside the project with a single bash call. */
interface WriteAttempt {
  what: string;
  command: string;
  /** The bash tool's `cwd` argument: relative, or "outside" for the folder beside the project by its absolute path. */
  cwd?: string;
  /** A symlink to the folder beside the project, made in the project under this name first. */
  link?: string;
  /** The command checker finds it dangerous (so with --yes alone it is refused, not run). */
  checkerAsks?: boolean;
  /**
   * The checker sees where it writes outside: that is a sandbox need, which only a user can
   * allow, so it is refused with --yes in every setting (dangerous allowed or not).
   */
  sandboxAsks?: boolean;
}

const WRITES: WriteAttempt[] = [
  { what: "a recursive delete through a variable", command: "R=rm; $R -r -f ../outside/dir", checkerAsks: true },
  { what: "mv with its source outside", command: "mv ../outside/f.txt ./f.txt", sandboxAsks: true },
  { what: "pushd, then a write", command: "pushd ..; touch outside/x", sandboxAsks: true },
  { what: "a here-string into bash", command: "bash <<< 'echo x > ../outside/y'", sandboxAsks: true },
  { what: "a base64 script piped into bash", command: `echo ${Buffer.from("echo x > ../outside/b64; rm -f ../outside/keep.txt\n").toString("base64")} | base64 -d | bash`, checkerAsks: true },
  { what: "tar writing its archive outside", command: "tar -cf ../outside/a.tar a.txt", sandboxAsks: true },
  { what: "a command name from a substitution", command: "$(echo rm) -rf ../x", checkerAsks: true },
  { what: "python3", command: `python3 -c "import os; open('../outside/py.txt', 'w').write('x'); os.remove('../outside/keep.txt')"` },
  { what: "node", command: `node -e "const fs = require('fs'); fs.writeFileSync('../outside/node.txt', 'x'); fs.rmSync('../outside/dir', { recursive: true })"` },
  { what: "perl", command: `perl -e 'open(my $f, ">", "../outside/perl.txt") or die "$!\\n"; print $f "x"; unlink("../outside/keep.txt") or die "$!\\n"'` },
  { what: "awk", command: `awk 'BEGIN { print "x" > "../outside/awk.txt"; system("rm -f ../outside/keep.txt") }'` },
  { what: 'the cwd argument ".."', command: "rm -rf outside/dir; echo new > made.txt", cwd: "..", checkerAsks: true, sandboxAsks: true },
  { what: "the cwd argument as an absolute path outside", command: "rm -f keep.txt; echo new > made.txt", cwd: "outside", sandboxAsks: true },
  { what: "the cwd argument through a symlink in the project", command: "rm -f keep.txt; echo new > made.txt", cwd: "link", link: "link", sandboxAsks: true },
];

describeSandboxed("the issue's bypasses, each through bosun run --yes inside its sandbox", () => {
  for (const attempt of WRITES) {
    for (const [setting, config] of SETTINGS) {
      it(`${attempt.what}, ${setting}: ${attempt.command.slice(0, 50)}`, async () => {
        const attack = plant(config);
        if (attempt.link) symlinkSync(attack.outside, join(attack.workdir, attempt.link));
        const cwd = attempt.cwd === "outside" ? attack.outside : attempt.cwd;
        const outcome = await run(attack, [bash(attempt.command, cwd ? { cwd } : {})]);
        expectContained(attack, outcome);
        expect(outcome.results).toHaveLength(1);
        if (attempt.sandboxAsks) {
          // The checker saw the write outside: only a user could allow it, and nobody can be asked.
          expect(outcome.results[0]).toMatch(/^Not run: this call writes outside the sandbox's writable folders: .*, which only the user can allow \(not --yes, not a permissions rule\)/);
          expect(outcome.code).toBe(3);
        } else if (attempt.checkerAsks && !config.permissions) {
          // The checker saw something it must ask about; with --yes and no terminal, that is a refusal.
          expect(outcome.results[0]).toMatch(/^Not run: this call .* which always needs the user's approval \(even with --yes\)/);
          expect(outcome.code).toBe(3);
        } else {
          expect(outcome.results[0]).not.toContain("Not run");
          expect(outcome.results[0]).toMatch(/Read-only file system|EROFS/i);
          expect(outcome.code).toBe(0);
        }
      });
    }
  }

  it("read of another agent's credential file is refused: only the user could allow it, and nobody can approve", async () => {
    const attack = plant();
    // `~` in a tool path is this process's home (the test worker's), not the run's HOME: the planted file by its full path.
    const outcome = await run(attack, [{ tool: "read", args: { path: join(attack.home, ".codex", "auth.json") } }]);
    expectContained(attack, outcome);
    expect(outcome.results[0]).toContain("Not run: this call reads a credential file");
    expect(outcome.code).toBe(3);
  });

  it("cat and base64 of the credential file through bash read an empty file", async () => {
    const attack = plant();
    const auth = join(attack.home, ".codex", "auth.json");
    const outcome = await run(attack, [bash(`cat ${auth}; base64 ${auth}; wc -c < ${auth}; echo read-it`)]);
    expectContained(attack, outcome);
    // Masked: the file reads as empty, or cannot be opened at all (a bind of /dev/null on a nodev mount).
    expect(outcome.results[0]).toMatch(/^(?:0\n|.*auth\.json: Permission denied\n)*read-it\n/);
  });

  it("env: neither the database URL's password nor the agent's key is in the tools' environment, nor anywhere it could go", async () => {
    const attack = plant();
    // Long enough to spill, so the spill file is checked too.
    const outcome = await run(attack, [bash("env; seq 1 20000")]);
    expectContained(attack, outcome);
    expect(outcome.results[0]).toContain(`HOME=${attack.home}`);
    expect(outcome.results[0]).toContain("characters omitted; the whole output (");
    expect(outcome.results[0]).not.toMatch(/DATABASE_URL=|ANTHROPIC_API_KEY=|SCRIPTED_API_KEY=/);
    const spills = outcome.evidence.filter((text) => text.includes(`HOME=${attack.home}\n`) && text.includes("\n19999\n"));
    expect(spills.length).toBeGreaterThan(0);
  });

  it("a key printed in the masked form a CLI shows (sk-proj-Q7v9…cD3eF5gH) is redacted everywhere", async () => {
    const attack = plant();
    attack.env.OPENAI_API_KEY = "sk-proj-Q7v9mN2xL8kR4tW6yB1cD3eF5gH";
    const outcome = await run(attack, [bash("echo 'key: sk-proj-Q7v9…cD3eF5gH'; echo 'end: …cD3eF5gH'")]);
    expectContained(attack, outcome);
    expect(outcome.results[0]).toContain("key: [redacted:OPENAI_API_KEY]");
    for (const text of outcome.evidence) {
      expect(text).not.toContain("sk-proj-Q7v9");
      expect(text).not.toContain("cD3eF5gH");
    }
  });

  it("yes AAAA… saves no more than the spill cap (sandbox.max_output_bytes)", async () => {
    const attack = plant({ sandbox: { max_output_bytes: 1 << 20 } });
    const outcome = await run(attack, [bash("yes AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { timeout_seconds: 3 })]);
    expectContained(attack, outcome);
    expect(outcome.results[0]).toContain("a call saves at most 1048576 (sandbox.max_output_bytes)");
    const sessions = join(resolvePaths(attack.env, attack.root).data, "sessions");
    const spills = readdirSync(sessions, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".txt"));
    expect(spills).toHaveLength(1);
    expect(statSync(join(sessions, spills[0]!)).size).toBe(1 << 20);
  });

  const leftovers: [string, (marker: string) => string][] = [
    ["&", (marker) => `sleep 300.${marker} &`],
    ["nohup … &", (marker) => `nohup sleep 300.${marker} >/dev/null 2>&1 &`],
    ["setsid … &", (marker) => `setsid sleep 300.${marker} &`],
  ];
  for (const [what, start] of leftovers) {
    it(`${what}: what the call started is gone when the call returns`, async () => {
      const attack = plant();
      const marker = `${process.pid}${Date.now() % 100000}`;
      let afterCall: string[] | undefined;
      // The model's second request comes once the call has returned: look then, while the run goes on.
      const looked = waitFor(() => llm.requests.length >= 2).then(() => (afterCall = sleeping(marker)));
      llm.reply().tool("bash", { command: `${start(marker)} sleep 0.3; echo started $(pgrep -c -f "^sleep 300\\.${marker}$")` });
      llm.reply().after(looked).text("done");
      try {
        const result = await runCli(["run", "--yes", "go"], attack.env, attack.workdir);
        expect(result.code).toBe(0);
        expect(requestToolResults(llm.requests[1]!)[0]).toContain("started 1");
        expect(afterCall).toEqual([]);
      } finally {
        for (const pid of sleeping(marker)) process.kill(Number(pid), "SIGKILL");
      }
    });
  }
});

/** The `sleep 300.<marker>` processes on this machine, whatever PID namespace they are in. */
function sleeping(marker: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", `^sleep 300\\.${marker}$`], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((done) => setTimeout(done, 20));
  }
}
