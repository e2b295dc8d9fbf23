import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import type { Sandbox } from "../../../src/agent/sandbox/sandbox.js";
import { createBashTool } from "../../../src/agent/tools/bash.js";
import { escapeCommands, PROJECT_LINKS, type EscapeCommand } from "../../fixtures/escape-grammar.js";
import { snapshotTree } from "../../fixtures/fs-snapshot.js";
import { describeSandboxed, sandboxLayout, testSandbox } from "../../fixtures/sandbox.js";
import { makeToolBench, type ToolBench } from "../../fixtures/tool-context.js";

/**
 * The property: whatever a command does — see test/fixtures/escape-grammar.ts for the grammar —
 * run by the bash tool inside the real sandbox, the sentinel tree outside the project is
 * byte-identical afterwards, and no planted credential (two masked files, two secret variables
 * of the run's environment), nor its base64 form, is in what the command printed.
 */

const SEED = 1_402_014;
const COUNT = 2_000;
/** Commands run at once, each lane in a layout of its own. */
const LANES = 3;
/** After this many failures the run stops (the first ones say enough). */
const MAX_FAILURES = 5;

const CODEX_KEY = "sk-proj-propertyPLANTEDcodexKey0123456789";
const SSO_TOKEN = "aws-sso-PLANTED-access-token-9f8e7d6c5b4a";
const DB_PASSWORD = "Pl4nted-property-db-pw-31337";
const SERVICE_KEY = "svc-PLANTED-service-api-key-24680";
const PLANTED = [CODEX_KEY, SSO_TOKEN, DB_PASSWORD, SERVICE_KEY];

const bash = createBashTool();
const cpio = (() => {
  try {
    execFileSync("sh", ["-c", "command -v cpio"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** One layout and its sandbox: a project, the sentinel tree beside it, and what it looked like planted. */
interface Lane {
  root: string;
  workdir: string;
  sandbox: Sandbox;
  env: Record<string, string>;
  bench: ToolBench;
  before: Record<string, string>;
}

/** Plants the sentinel tree: the folder beside the project, `x/` in the parent, and a home with two credential files. */
function plantSentinels(root: string): void {
  const files: Record<string, string> = {
    "outside/f.txt": "sentinel f\n",
    "outside/keep.txt": "sentinel keep\n",
    "outside/dir/inner.txt": "sentinel inner\n",
    "x/x.txt": "sentinel x\n",
    "home/.bashrc": "# sentinel bashrc\n",
    "home/.codex/auth.json": JSON.stringify({ OPENAI_API_KEY: CODEX_KEY }),
    "home/.aws/sso/cache/token.json": JSON.stringify({ accessToken: SSO_TOKEN }),
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Empties the project (which commands may change at will) and plants its file and its links out. */
function resetProject(workdir: string): void {
  chmodSync(workdir, 0o755);
  for (const name of readdirSync(workdir)) rmSync(join(workdir, name), { recursive: true, force: true });
  writeFileSync(join(workdir, "a.txt"), "project file s\n");
  for (const [name, target] of Object.entries(PROJECT_LINKS)) symlinkSync(target, join(workdir, name));
}

/** The tree under the layout's root without the project. */
function sentinels(root: string): Record<string, string> {
  const tree = snapshotTree(root);
  for (const path of Object.keys(tree)) if (/^project(\/|$)/.test(path)) delete tree[path];
  return tree;
}

async function openLane(): Promise<Lane> {
  const { root, home, workdir } = sandboxLayout();
  plantSentinels(root);
  resetProject(workdir);
  // The interpreters as the system has them (a version manager's shims in PATH would cost a second a call).
  const path = [dirname(process.execPath), "/usr/bin", "/bin"].join(":");
  const runEnv = { PATH: path, HOME: home, LANG: "C.UTF-8", DATABASE_URL: `postgres://app:${DB_PASSWORD}@db.internal:5432/app`, SERVICE_API_KEY: SERVICE_KEY };
  const sandbox = await testSandbox(workdir, {
    env: runEnv,
    secrets: { files: [join(home, ".codex", "auth.json")], folders: [join(home, ".aws", "sso", "cache")], env: [] },
  });
  return { root, workdir, sandbox, env: sandbox.env as Record<string, string>, bench: makeToolBench(), before: sentinels(root) };
}

/** How `secret` looks in base64 text, whatever its alignment there. */
function base64Forms(secret: string): string[] {
  return [0, 1, 2].map((shift) => Buffer.concat([Buffer.alloc(shift), Buffer.from(secret)]).toString("base64").slice(shift > 0 ? 4 : 0, -4));
}

const FORBIDDEN = PLANTED.flatMap((secret) => [secret, ...base64Forms(secret)]);

/** What went wrong with one command, or null: the tree changed, or a credential was printed. */
async function attack(lane: Lane, attempt: EscapeCommand, index: number): Promise<string | null> {
  const result = await lane.bench.run(bash, { command: attempt.command, timeout_seconds: 20 }, { workdir: lane.workdir, sandbox: lane.sandbox, env: lane.env, callId: `c${index}` });
  const printed = result.spillFile ? `${result.output}\n${readFileSync(result.spillFile, "utf8")}` : result.output;
  const problems: string[] = [];
  const leaked = FORBIDDEN.filter((form) => printed.includes(form));
  if (leaked.length > 0) problems.push(`printed a planted credential (${leaked.join(", ")})`);
  const after = sentinels(lane.root);
  const changed = [...new Set([...Object.keys(lane.before), ...Object.keys(after)])].filter((path) => lane.before[path] !== after[path]);
  if (changed.length > 0) problems.push(`changed the sentinel tree: ${changed.join(", ")}`);
  resetProject(lane.workdir);
  if (problems.length === 0) return null;
  // Put the tree back, so one failure does not make every later command fail too.
  for (const name of ["outside", "x", "home"]) rmSync(join(lane.root, name), { recursive: true, force: true });
  plantSentinels(lane.root);
  lane.before = sentinels(lane.root);
  return `command #${index} (${attempt.kind}), seed ${SEED}: ${problems.join("; ")}\n  $ ${attempt.command.replace(/\n/g, "\n    ")}\n  output: ${printed.slice(0, 400).replace(/\n/g, "\n    ")}`;
}

describeSandboxed("no generated command gets out of the sandbox", () => {
  it(`${COUNT} commands from seed ${SEED}: the sentinel tree stays byte-identical and no credential is printed`, { timeout: 600_000 }, async () => {
    const lanes = await Promise.all(Array.from({ length: LANES }, () => openLane()));
    const commands = lanes.map((lane) => escapeCommands(SEED, COUNT, { root: lane.root, cpio }));
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      lanes.map(async (lane, laneIndex) => {
        while (failures.length < MAX_FAILURES) {
          const index = next++;
          if (index >= COUNT) return;
          const failure = await attack(lane, commands[laneIndex]![index]!, index);
          if (failure) failures.push(failure);
        }
      }),
    );
    expect(failures.length, `\n${failures.join("\n\n")}\n`).toBe(0);
  });
});
