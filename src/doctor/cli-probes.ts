import { createServer, type Server } from "node:net";
import type { Env } from "../kernel/paths.js";
import type { CliListing, ListedItem } from "./listing.js";
import { DEFAULT_MAX_OUTPUT_BYTES, runFailure, runProbe, type ProbeRun } from "./probe-process.js";
import { claudeInitSeen, parseClaudeStream } from "./probes/claude.js";
import { codexAnswered, codexSession, parseCodexAppServer } from "./probes/codex.js";
import { parseGeminiSkills } from "./probes/gemini.js";
import { parseCodexMcpList, parseGeminiMcpList } from "./probes/mcp-lists.js";
import { parseOpencode } from "./probes/opencode.js";
import { OPENCODE_SERVE_ARGS, opencodeServerQuestions } from "./probes/opencode-server.js";

export interface ProbeRequest {
  bin: string;
  env: Env;
  cwd: string;
  timeoutMs: number;
  /** Skills are among the artifacts to check (only then is OpenCode asked for its skills too). */
  wantsSkills: boolean;
  /** MCP servers are among them (only then are Gemini CLI and Codex asked for theirs, by a second command). */
  wantsMcp?: boolean;
}

/** What the CLI said it loaded, or why it could not say (one display-safe line). */
export type ProbeAnswer = { listing: CliListing; ms: number; how: string } | { failure: string; ms: number; how: string };

/** The runtimes whose CLI bosun can ask, offline and without credentials, what it loaded. */
export const PROBED_RUNTIMES = ["claude", "codex", "gemini", "opencode"] as const;

export function hasProbe(runtime: string): boolean {
  return (PROBED_RUNTIMES as readonly string[]).includes(runtime);
}

/** Asks the runtime's CLI what it loaded. Never throws. */
export async function probeCli(runtime: string, request: ProbeRequest): Promise<ProbeAnswer> {
  switch (runtime) {
    case "claude":
      return probeClaude(request);
    case "codex":
      return probeCodex(request);
    case "gemini":
      return probeGemini(request);
    case "opencode":
      return probeOpencode(request);
    default:
      return { failure: "bosun has no probe for this agent", ms: 0, how: "" };
  }
}

const CLAUDE_ARGS = ["-p", "--output-format", "stream-json", "--verbose", "x"];

/**
 * Claude's headless start lists what it loaded in its first `system/init` event, before it
 * asks the model. Signed in or not, it must never reach the model: its API address is a local
 * socket bosun opens and closes at once, it does not retry, and it is stopped as soon as the
 * init event is read. The start runs your SessionStart hooks, as any session would. It skips
 * the git status it would put in the model's prompt (`CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS`):
 * the init event waits for it, and in a large repository that can take seconds.
 */
async function probeClaude(request: ProbeRequest): Promise<ProbeAnswer> {
  const sink = await closedSink();
  try {
    const env: Env = {
      ...request.env,
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${sink.port}`,
      CLAUDE_CODE_MAX_RETRIES: "0",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS: "1",
    };
    const run = await runProbe({ bin: request.bin, args: CLAUDE_ARGS, env, cwd: request.cwd, timeoutMs: request.timeoutMs, doneWhen: claudeInitSeen });
    return answer(run, request.timeoutMs, "claude -p --output-format stream-json --verbose", parseClaudeStream(run.stdout));
  } finally {
    sink.close();
  }
}

/** Codex's app-server for skills and hooks; `codex mcp list --json` beside it (static: it starts no server) when MCP servers are to be checked. */
async function probeCodex(request: ProbeRequest): Promise<ProbeAnswer> {
  const [run, mcp] = await Promise.all([
    runProbe({ bin: request.bin, args: ["app-server"], env: request.env, cwd: request.cwd, timeoutMs: request.timeoutMs, session: codexSession(request.cwd), doneWhen: codexAnswered }),
    request.wantsMcp ? runProbe({ bin: request.bin, args: ["mcp", "list", "--json"], env: request.env, cwd: request.cwd, timeoutMs: request.timeoutMs }) : null,
  ]);
  const listing = withMcp(parseCodexAppServer(run.stdout), mcp, request.timeoutMs, (done) => parseCodexMcpList(done.stdout));
  return answer(run, request.timeoutMs, `codex app-server (skills/list, hooks/list)${mcp ? ", codex mcp list --json" : ""}`, listing);
}

async function probeGemini(request: ProbeRequest): Promise<ProbeAnswer> {
  // Gemini CLI starts itself a second time (for its memory settings) unless told it already did; a
  // listing needs no more memory, and skipping that halves the probe (what it loads is the same).
  const env: Env = { ...request.env, GEMINI_CLI_NO_RELAUNCH: "true" };
  const [run, mcp] = await Promise.all([
    runProbe({ bin: request.bin, args: ["skills", "list"], env, cwd: request.cwd, timeoutMs: request.timeoutMs }),
    // It starts each server to say whether it connected (in a trusted folder).
    request.wantsMcp ? runProbe({ bin: request.bin, args: ["mcp", "list"], env, cwd: request.cwd, timeoutMs: request.timeoutMs }) : null,
  ]);
  const listing = withMcp(parseGeminiSkills(run.stdout, run.stderr), mcp, request.timeoutMs, (done) => parseGeminiMcpList(done.stdout, done.stderr));
  return answer(run, request.timeoutMs, `gemini skills list${mcp ? ", gemini mcp list" : ""}`, listing);
}

/** The listing with the MCP servers a second command listed; left without them (each unchecked) when that command failed. */
function withMcp(listing: CliListing | null, mcp: ProbeRun | null, timeoutMs: number, parse: (run: ProbeRun) => ListedItem[] | null): CliListing | null {
  if (!listing || !mcp || runFailure(mcp, timeoutMs)) return listing;
  const servers = parse(mcp);
  return servers ? { ...listing, mcpServers: servers } : listing;
}

/**
 * OpenCode answers both listings from one start: `opencode serve` on loopback, asked over HTTP
 * with a password made for the run, then stopped (each `opencode debug …` command would start
 * OpenCode again, and a start is most of what one costs). `npm_config_offline` keeps a config
 * folder with a plugin from waiting on an npm install.
 */
async function probeOpencode(request: ProbeRequest): Promise<ProbeAnswer> {
  const server = opencodeServerQuestions({ cwd: request.cwd, skills: request.wantsSkills, maxBytes: DEFAULT_MAX_OUTPUT_BYTES });
  const env: Env = { ...request.env, npm_config_offline: "true", OPENCODE_DISABLE_MODELS_FETCH: "1", ...server.env };
  try {
    const run = await runProbe({ bin: request.bin, args: OPENCODE_SERVE_ARGS, env, cwd: request.cwd, timeoutMs: request.timeoutMs, watch: server.watch });
    const answers = server.answers();
    const how = `opencode serve (GET ${server.paths.join(", ")})`;
    return answer(run, request.timeoutMs, how, answers ? parseOpencode(answers.config, answers.skill) : null, runFailure(run, request.timeoutMs) ?? server.failure());
  } finally {
    server.close();
  }
}

function answer(run: ProbeRun, timeoutMs: number, how: string, listing: CliListing | null, failure = runFailure(run, timeoutMs)): ProbeAnswer {
  if (failure) return { failure, ms: run.ms, how };
  if (listing) return { listing, ms: run.ms, how };
  const ended = run.signal ? `was ended by ${run.signal}` : `exited with code ${run.code}`;
  return { failure: `${ended} without listing what it loaded (its output was not what bosun expects)`, ms: run.ms, how };
}

/**
 * A local port that accepts and drops every connection: an API address that goes nowhere. Where
 * no port can be opened (no loopback at all), port 1, which nothing can be listening on then.
 */
function closedSink(): Promise<{ port: number; close(): void }> {
  return new Promise((resolve) => {
    const server: Server = createServer((socket) => socket.destroy());
    server.on("error", () => resolve({ port: 1, close: () => undefined }));
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ port: typeof address === "object" && address ? address.port : 0, close: () => server.close() });
    });
  });
}
