// Acceptance check by hand (too heavy for CI): install bosun's pack into each real coding agent
// found on the PATH, in a throwaway home, and ask the agent itself, offline and without
// credentials, whether it loaded the skill, the commands and the agent (the checks are the ones
// in the research notes on the real CLIs). Agents that are not installed are skipped.
//
//   npm run build && node scripts/accept-install.mjs [--keep]
//
// Exit code 1 when an installed agent did not load what bosun put in its folder.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bosun = join(root, "bin", "bosun.js");
const keep = process.argv.includes("--keep");

function which(binary) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir && existsSync(join(dir, binary))) return join(dir, binary);
  return null;
}

// A home outside /tmp: Codex warns on stderr when its folder is under a temp folder.
const base = mkdtempSync(join(existsSync(join(homedir(), ".cache")) ? join(homedir(), ".cache") : homedir(), "bosun-accept-"));
const home = join(base, "home");
const project = join(base, "project");
mkdirSync(project, { recursive: true });
mkdirSync(join(home, ".codex"), { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local/state"),
  TMPDIR: join(base, "tmp"),
  LANG: "C.UTF-8",
  TERM: "dumb",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  npm_config_offline: "true",
  GEMINI_CLI_TRUST_WORKSPACE: "true",
};
mkdirSync(env.TMPDIR, { recursive: true });

function run(command, args) {
  const result = spawnSync(command, args, { env, cwd: project, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
  return { code: result.status, out: `${result.stdout ?? ""}\n${result.stderr ?? ""}` };
}

/** Each agent: its binary, and how to see what it loaded (offline, no credentials). */
const CHECKS = [
  {
    id: "claude",
    binary: "claude",
    probe() {
      const { out } = run("claude", ["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "hello"]);
      const events = out.split("\n").flatMap((line) => {
        try {
          return [JSON.parse(line)];
        } catch {
          return [];
        }
      });
      const init = events.find((event) => event.subtype === "init") ?? {};
      const hook = events.find((event) => event.subtype === "hook_response" && event.hook_event === "SessionStart");
      return [
        ["skill bosun-orchestrator", (init.skills ?? []).includes("bosun-orchestrator")],
        ["command bosun-status", (init.slash_commands ?? []).includes("bosun-status")],
        ["agent bosun-reviewer", (init.agents ?? []).includes("bosun-reviewer")],
        ["SessionStart hook ran and printed bosun's line", hook?.outcome === "success" && String(hook.stdout).startsWith("bosun")],
      ];
    },
  },
  {
    id: "codex",
    binary: "codex",
    async probe() {
      const { out } = run("codex", ["debug", "prompt-input", "hello"]);
      const hooks = await codexAppServer("hooks/list", { cwds: [project] });
      const listed = hooks?.result?.data?.[0] ?? {};
      const ours = (listed.hooks ?? []).find((hook) => hook.eventName === "sessionStart" && hook.command.includes("bosun-hook.mjs session-start"));
      return [
        ["skill bosun-orchestrator", out.includes("bosun-orchestrator")],
        ["command bosun-status (as a skill)", out.includes("bosun-status")],
        ["sessionStart hook listed (waits for your trust)", Boolean(ours) && (listed.errors ?? []).length === 0],
      ];
    },
  },
  {
    id: "gemini",
    binary: "gemini",
    probe() {
      const { out } = run("gemini", ["skills", "list"]);
      return [
        ["skill bosun-orchestrator", out.includes("bosun-orchestrator")],
        ["agent bosun-reviewer loads", !/error loading user agent[^\n]*bosun-reviewer/i.test(out)],
      ];
    },
  },
  {
    id: "opencode",
    binary: "opencode",
    probe() {
      const config = run("opencode", ["debug", "config"]).out;
      const skills = run("opencode", ["debug", "skill"]).out;
      const agents = run("opencode", ["agent", "list"]).out;
      return [
        ["command bosun-status", config.includes('"bosun-status"')],
        ["skill bosun-orchestrator", skills.includes("bosun-orchestrator")],
        ["agent bosun-reviewer (subagent)", /bosun-reviewer \(subagent\)/.test(agents)],
      ];
    },
  },
];

/** One JSON-RPC call to `codex app-server` over stdio (initialize, initialized, the call). */
function codexAppServer(method, params) {
  return new Promise((resolve) => {
    const child = spawn("codex", ["app-server"], { env, cwd: project, stdio: ["pipe", "pipe", "ignore"] });
    const timer = setTimeout(() => (child.kill(), resolve(null)), 30_000);
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id === 0) {
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "initialized" }) + "\n");
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) + "\n");
        } else if (message.id === 1) {
          clearTimeout(timer);
          child.kill();
          resolve(message);
        }
      }
    });
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "bosun-accept", version: "1" } } }) + "\n");
  });
}

let failed = false;
try {
  const present = CHECKS.filter((check) => which(check.binary));
  for (const check of CHECKS) if (!present.includes(check)) console.log(`skip  ${check.id}: ${check.binary} is not on the PATH`);
  if (present.length > 0) {
    const install = spawnSync(process.execPath, [bosun, "install", "--runtime", present.map((check) => check.id).join(","), "--scope", "global", "--yes"], { env, cwd: project, encoding: "utf8" });
    if (install.status !== 0) throw new Error(`bosun install failed: ${install.stderr}`);
  }
  // The hook helper the pack's hooks run prints one status line and exits 0.
  if (present.length > 0) {
    const helper = spawnSync(process.execPath, [join(env.XDG_DATA_HOME, "bosun/bin/bosun-hook.mjs"), "session-start"], { env, encoding: "utf8", timeout: 10_000 });
    const line = helper.stdout.trim();
    const ok = helper.status === 0 && line.split("\n").length === 1 && line.startsWith("bosun");
    console.log(`${ok ? "ok  " : "FAIL"}  hook helper: ${JSON.stringify(line)}`);
    if (!ok) failed = true;
  }
  for (const check of present) {
    for (const [what, ok] of await check.probe()) {
      console.log(`${ok ? "ok  " : "FAIL"}  ${check.id}: ${what}`);
      if (!ok) failed = true;
    }
  }
} finally {
  if (keep) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
