import { randomBytes } from "node:crypto";
import { request, type ClientRequest } from "node:http";
import type { Env } from "../../kernel/paths.js";
import { cliText, isObject } from "../listing.js";

/**
 * `opencode serve` on loopback, on a port OpenCode picks: one start of OpenCode answers both
 * listings (a start is most of what each `opencode debug …` command costs).
 */
export const OPENCODE_SERVE_ARGS = ["serve", "--hostname", "127.0.0.1", "--port", "0"] as const;

/** OpenCode's own name for the server's user (it asks for a password only when one is set). */
const SERVER_USER = "opencode";

// "opencode server listening on http://127.0.0.1:4096"
const LISTENING = /listening on https?:\/\/127\.0\.0\.1:(\d{1,5})\b/;

/** The bodies of OpenCode's answers: its resolved config, and its skills when they were asked for. */
export interface OpencodeAnswers {
  config: string;
  skill: string | null;
}

/** Asks `opencode serve` for its listings once it says where it listens. */
export interface OpencodeServerQuestions {
  /** What the server's process must have in its environment: a password only this probe knows. */
  env: Env;
  /** The paths asked (`/config`, and `/skill` when skills are expected), for the report. */
  paths: readonly string[];
  /** For the run's `watch`: asks once the address is out, stops the run once every answer is in. */
  watch(stdout: string, stop: () => void): void;
  /** Every answer's body, or null while one is missing. */
  answers(): OpencodeAnswers | null;
  /** Why asking failed, in words for the report (one display-safe line); null when it did not. */
  failure(): string | null;
  /** Drops whatever request is still open (the run is over). */
  close(): void;
}

/**
 * The questions for `opencode serve` about the folder `cwd`: GET /config (the same resolved
 * config `opencode debug config` prints) and, when `skills`, GET /skill (the list `opencode
 * debug skill` prints), both at once, each answer bounded to `maxBytes`. The server is asked with
 * a password made for this run, so nothing else on the machine can use it meanwhile.
 */
export function opencodeServerQuestions(options: { cwd: string; skills: boolean; maxBytes: number }): OpencodeServerQuestions {
  const password = randomBytes(18).toString("base64url");
  const paths = options.skills ? ["/config", "/skill"] : ["/config"];
  const bodies = new Map<string, string>();
  const open = new Set<ClientRequest>();
  let asked = false;
  let closed = false;
  let failed: string | null = null;
  const authorization = `Basic ${Buffer.from(`${SERVER_USER}:${password}`).toString("base64")}`;
  const close = () => {
    closed = true;
    for (const pending of open) pending.destroy();
    open.clear();
  };
  return {
    env: { OPENCODE_SERVER_USERNAME: SERVER_USER, OPENCODE_SERVER_PASSWORD: password },
    paths,
    watch(stdout, stop) {
      const port = asked || closed ? null : LISTENING.exec(stdout)?.[1];
      if (!port) return;
      asked = true;
      for (const path of paths) {
        const pending = getJson(Number(port), path, options.cwd, authorization, options.maxBytes, (outcome) => {
          open.delete(pending);
          if (closed || failed !== null) return;
          if ("failure" in outcome) {
            failed = outcome.failure;
            close();
            stop();
            return;
          }
          bodies.set(path, outcome.body);
          if (bodies.size === paths.length) stop();
        });
        open.add(pending);
      }
    },
    answers() {
      const config = bodies.get("/config");
      if (config === undefined || (options.skills && !bodies.has("/skill"))) return null;
      return { config, skill: bodies.get("/skill") ?? null };
    },
    failure: () => failed,
    close,
  };
}

/** One GET about the folder `cwd` to the server on loopback; `done` gets the JSON body or why there is none. */
function getJson(port: number, path: string, cwd: string, authorization: string, maxBytes: number, done: (outcome: { body: string } | { failure: string }) => void): ClientRequest {
  let settled = false;
  const settle = (outcome: { body: string } | { failure: string }) => {
    if (settled) return;
    settled = true;
    done(outcome);
  };
  const answered = (how: string) => settle({ failure: `answered GET ${path} with ${how}` });
  const pending = request({ host: "127.0.0.1", port, path: `${path}?directory=${encodeURIComponent(cwd)}`, method: "GET", agent: false, headers: { authorization, accept: "application/json", connection: "close" } }, (response) => {
    let body = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      if (settled) return;
      if (body.length + chunk.length > maxBytes) {
        answered("far more than expected (stopped)");
        response.destroy();
        return;
      }
      body += chunk;
    });
    response.on("error", (error: NodeJS.ErrnoException) => settle({ failure: `broke off its answer to GET ${path} (${error.code ?? "error"})` }));
    response.on("end", () => {
      const status = response.statusCode ?? 0;
      if (status !== 200) return answered(`HTTP ${status}${errorName(body)}`);
      // An OpenCode without this listing answers with its web page instead.
      if (!/^application\/json\b/i.test(String(response.headers["content-type"] ?? ""))) return answered("something other than JSON (an OpenCode without this listing?)");
      settle({ body });
    });
  });
  pending.on("error", (error: NodeJS.ErrnoException) => settle({ failure: `could not be asked GET ${path} (${error.code ?? "error"})` }));
  pending.end();
  return pending;
}

/** OpenCode's name for the error it answered with (`ConfigJsonError`), never the rest of its text. */
function errorName(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const name = isObject(parsed) ? parsed.name : undefined;
    return typeof name === "string" && /^[A-Za-z][\w.]{0,60}$/.test(name) ? ` (${cliText(name)})` : "";
  } catch {
    return "";
  }
}
