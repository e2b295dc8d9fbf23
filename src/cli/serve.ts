import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import type { Command } from "commander";
import { UserError } from "../kernel/errors.js";
import { bootForCommand } from "./boot.js";
import { notify, writeLine, type Output } from "./output.js";

interface ServeFlags {
  port?: string;
  host?: string;
  open?: boolean;
  json?: boolean;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

export function registerServe(program: Command, output: Output): void {
  program
    .command("serve")
    .description("a local web dashboard and JSON API: agents, installs, the catalog, sessions, status")
    .option("--port <n>", "the port (default 7480; an error when it is taken)")
    .option("--host <address>", "listen on this address instead of 127.0.0.1 (reachable by others: the launch link is the only key)")
    .option("--open", "open the launch link in your browser (the default on a terminal)")
    .option("--no-open", "only print the launch link")
    .option("--json", "print the address and the launch link as one JSON line (and each new link as one more)")
    .action(async (flags: ServeFlags) => serveAction(flags, output));
}

/** `--port`: a whole number from 1 to 65535 (0 picks a free one: for tests). */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UserError(`--port must be a whole number from 1 to 65535, not ${JSON.stringify(value.slice(0, 40))}`);
  return Number(value);
}

/** `--host`: an IP address (a name could resolve elsewhere later). */
export function parseHost(value: string | undefined): string {
  if (value === undefined) return "127.0.0.1";
  if (value === "localhost") return "127.0.0.1";
  if (isIP(value) === 0) throw new UserError(`--host must be an IP address (such as 127.0.0.1 or 192.168.1.20), not ${JSON.stringify(value.slice(0, 60))}`);
  return value;
}

/** Another `bosun serve` on the same state folder, still running: the error that says where. */
function runningServer(file: string): { pid: number; url: string } | null {
  if (!existsSync(file)) return null;
  try {
    const record = JSON.parse(readFileSync(file, "utf8")) as { pid: number; url: string };
    process.kill(record.pid, 0);
    return record;
  } catch {
    return null;
  }
}

async function serveAction(flags: ServeFlags, output: Output): Promise<void> {
  // A long-running server whose work comes in small pieces: V8's young generation stays at its
  // first size instead of growing to 32 MB it never gives back (more, cheaper scavenges).
  (await import("node:v8")).setFlagsFromString("--semi-space-growth-factor=1");
  const [{ startDashboard, DEFAULT_PORT }, { dashboardSecret }] = await Promise.all([import("../web/dashboard-server.js"), import("../web/security/dashboard-auth.js")]);
  const port = parsePort(flags.port, DEFAULT_PORT);
  const host = parseHost(flags.host);
  const boot = await bootForCommand(output);
  const record = join(boot.paths.state, "serve.json");
  const other = runningServer(record);
  if (other && other.pid !== process.pid) throw new UserError(`bosun serve already runs for this bosun (pid ${other.pid}) at ${other.url}: use it (press Enter in its terminal for a new link), or stop it first`);
  const [{ dashboardSources }, { serveRedactor }] = await Promise.all([import("./serve-sources.js"), import("../app/mcp-server/serve-redactor.js")]);
  const sources = await dashboardSources(boot, process.cwd(), await serveRedactor(boot), output);
  const dashboard = await startDashboard({ host, port, sources, secret: dashboardSecret(join(boot.paths.state, "serve-secret")), packageRoot: boot.packageRoot, home: boot.paths.home, audit: (message, fields) => boot.log.info(message, fields) });
  writeFileSync(record, `${JSON.stringify({ pid: process.pid, url: dashboard.url })}\n`, { mode: 0o600 });
  const interactive = Boolean((output.stdin as { isTTY?: boolean } | undefined)?.isTTY ?? process.stdin.isTTY);
  const link = dashboard.launchUrl();
  if (flags.json) writeLine(output.stdout, JSON.stringify({ url: dashboard.url, launchUrl: link, pid: process.pid }));
  else {
    writeLine(output.stdout, `bosun serve: ${dashboard.url} (Ctrl-C stops it; Enter prints a new link)`);
    writeLine(output.stdout, `  open ${link}`);
    writeLine(output.stdout, "  (the link works once, for 10 minutes; it signs this browser in)");
  }
  if (!LOOPBACK.has(host)) notify(output, `bosun: warning: listening on ${host}: anyone who can reach it and gets a launch link can use the dashboard; keep the link to yourself`);
  if (flags.open ?? (interactive && !flags.json)) openInBrowser(link, output);

  // Each line on stdin (Enter, on a terminal) prints a new launch link.
  const stdin = process.stdin;
  const onLine = (chunk: string) => {
    for (let count = chunk.split("\n").length - 1; count > 0; count--) writeLine(output.stdout, flags.json ? JSON.stringify({ launchUrl: dashboard.launchUrl() }) : `  open ${dashboard.launchUrl()}`);
  };
  stdin.setEncoding("utf8");
  stdin.on("data", onLine);
  stdin.on("error", () => undefined);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  stdin.off("data", onLine);
  stdin.pause();
  await dashboard.close();
  try {
    if (runningServer(record)?.pid === process.pid) rmSync(record);
  } catch {
    // gone already
  }
}

/** Opens the link with the system's opener (xdg-open, open); a missing one is a note, not a failure. */
function openInBrowser(link: string, output: Output): void {
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(opener, [link], { stdio: "ignore", detached: true });
  child.on("error", () => notify(output, `bosun: could not open a browser (${opener} is not available); open the link above yourself`));
  child.unref();
}
