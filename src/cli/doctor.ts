import type { Command } from "commander";
import { UserError } from "../kernel/errors.js";
import { bootForCommand } from "./boot.js";
import { collect } from "./collect-flag.js";
import { styler, writeJson, writeLine, type Output } from "./output.js";

interface DoctorFlags {
  runtime?: string[];
  json?: boolean;
  timeout?: string;
}

/** Doctor found something to fix: the report above lists each with what to do (exit 1). */
export class DoctorProblemsError extends UserError {
  override name = "DoctorProblemsError";
  constructor(readonly count: number) {
    super(`doctor found ${count} problem${count === 1 ? "" : "s"}; each line above says what to do`);
  }
}

const MAX_TIMEOUT_SECONDS = 600;

export function registerDoctor(program: Command, output: Output): void {
  program
    .command("doctor")
    .description("check every pack bosun installed: files intact, loaded by the agent's own CLI (asked offline), signed in, the hook's last status")
    .option("--runtime <ids>", "only these runtimes, comma-separated or repeated (claude, codex, gemini, opencode, …)", collect)
    .option("--timeout <seconds>", "how long each agent's CLI may take to answer", "20")
    .option("--json", "print the whole report as JSON")
    .action(async (flags: DoctorFlags) => doctorCommand(flags, output));
}

async function doctorCommand(flags: DoctorFlags, output: Output): Promise<void> {
  const timeoutMs = parseTimeout(flags.timeout);
  const named = (flags.runtime ?? []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter(Boolean);
  if (flags.runtime && named.length === 0) throw new UserError("--runtime needs a runtime id (e.g. --runtime claude,codex)");
  const registry = await import("../runtimes/registry.js");
  const runtimes = named.length > 0 ? [...new Set(named)].map((id) => registry.getInstallRuntime(id)) : undefined;
  const boot = await bootForCommand(output);
  const { runDoctor } = await import("../doctor/doctor.js");
  const report = await runDoctor({
    ...(runtimes ? { runtimes } : {}),
    env: boot.agentEnv,
    home: boot.paths.home,
    cwd: process.cwd(),
    dataDir: boot.paths.data,
    agentsConfig: boot.config?.value.agents,
    timeoutMs,
    packageRoot: boot.packageRoot,
    cacheDir: boot.paths.cache,
  });
  if (flags.json) writeJson(output, report);
  else {
    const { doctorLines } = await import("./render-doctor.js");
    for (const line of doctorLines(report, boot.paths.home, styler(output))) writeLine(output.stdout, line);
  }
  if (!report.ok) throw new DoctorProblemsError(report.problems.length);
}

function parseTimeout(value: string | undefined): number {
  const text = String(value ?? "20").trim();
  const seconds = Number(text);
  if (text === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) throw new UserError(`--timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, not ${JSON.stringify(String(value).slice(0, 40))}`);
  return Math.round(seconds * 1000);
}
