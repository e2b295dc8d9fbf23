import type { Command } from "commander";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { displayPath } from "../kernel/paths.js";
import { packageVersion } from "../kernel/package-info.js";
import type { Boot } from "../app/start.js";
import { UserError } from "../kernel/errors.js";
import type { ImportReport } from "../install/import/import-pack.js";
import { bootForCommand } from "./boot.js";
import { collect } from "./collect-flag.js";
import { writeJson, writeLine, type Output } from "./output.js";

interface ImportFlags {
  runtime?: string;
  scope?: string;
  out?: string;
  name?: string;
  version?: string;
  files?: string[];
  json?: boolean;
}

/** The runtimes the closing check plans the imported pack for (in a scratch home). */
const CHECK_RUNTIMES = ["claude", "codex", "gemini", "opencode"];

export function registerPack(program: Command, output: Output): void {
  const pack = program.command("pack").description("work with workflow packs");
  pack
    .command("import")
    .description("make a pack from what you have in one agent (its skills, commands, agents, hooks and settings), to install it into the others")
    .requiredOption("--runtime <id>", "the agent to read (claude, codex, gemini, opencode, qwen, kilo, augment, codebuddy)")
    .option("--scope <scope>", "global (the agent's user folder) or local (this project)", "global")
    .option("--out <dir>", "the pack folder to write (must be new or empty; default ./<name>)")
    .option("--name <name>", "the pack's name (default: the --out folder's name, else <runtime>-setup)")
    .option("--version <version>", "the pack's version", "0.1.0")
    .option("--files <dir>", "a folder of the agent's folder (relative to it) to carry in the pack's files/; repeat for more", collect)
    .option("--json", "print the report as JSON")
    .action(async (flags: ImportFlags) => importCommand(flags, output));
}

async function importCommand(flags: ImportFlags, output: Output): Promise<void> {
  if (flags.scope !== "global" && flags.scope !== "local") throw new UserError(`--scope must be global or local, not ${JSON.stringify(String(flags.scope).slice(0, 40))}`);
  const boot = await bootForCommand(output);
  const { planImport, writeImport } = await import("../install/import/import-pack.js");
  const plan = planImport({
    runtime: flags.runtime ?? "",
    scope: flags.scope,
    ...(flags.out === undefined ? {} : { out: flags.out }),
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.version === undefined ? {} : { version: flags.version }),
    files: flags.files ?? [],
    env: boot.agentEnv,
    home: boot.paths.home,
    cwd: process.cwd(),
  });
  writeImport(plan);
  const checks = await checkImported(plan.report, boot);
  if (flags.json) return writeJson(output, { ...plan.report, check: checks });
  render(plan.report, checks, boot, output);
}

interface RuntimeCheck {
  runtime: string;
  ok: boolean;
  problem?: string;
}

/**
 * The closing check: the pack loads, and a dry-run install plans it for each of the four main
 * runtimes in a scratch home. A pack that does not load, or that its own runtime refuses for any
 * reason but the `{env:NAME}` references import wrote for secrets, is removed again and the
 * import fails.
 */
async function checkImported(report: ImportReport, boot: Boot): Promise<RuntimeCheck[]> {
  const { installPack } = await import("../install/install-pack.js");
  const { ImportError } = await import("../install/import/import-errors.js");
  const fail = (problem: string): never => {
    rmSync(report.pack.dir, { recursive: true, force: true });
    throw new ImportError(`the imported pack does not install (${problem}); nothing was kept — this is a bug in bosun pack import, please report it`);
  };
  const scratch = mkdtempSync(join(tmpdir(), "bosun-import-check-"));
  const checks: RuntimeCheck[] = [];
  try {
    const home = join(scratch, "home");
    const env = { PATH: boot.agentEnv.PATH, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"), XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local/state") };
    for (const runtime of [...new Set([report.runtime.id, ...CHECK_RUNTIMES])]) {
      try {
        await installPack({ pack: report.pack.dir, runtimes: [runtime], scope: "global", dryRun: true, lockTimeoutMs: 5000, env, home, cwd: scratch, dataDir: join(home, ".local/share/bosun"), packageRoot: boot.packageRoot, bosunVersion: packageVersion(), agentsConfig: undefined, trustSettled: false });
        checks.push({ runtime, ok: true });
      } catch (error) {
        const problem = (error as Error).message;
        const secretRefusal = report.secrets.length > 0 && problem.includes("{env:");
        if (!(error instanceof UserError)) throw error;
        if (runtime === report.runtime.id && !secretRefusal) fail(problem);
        checks.push({ runtime, ok: false, problem });
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return checks;
}

function render(report: ImportReport, checks: RuntimeCheck[], boot: Boot, output: Output): void {
  const home = boot.paths.home;
  const { imported } = report;
  writeLine(output.stdout, `imported ${report.runtime.title} (${report.scope}, ${displayPath(report.from, home)}) into ${displayPath(report.pack.dir, home)}: pack ${report.pack.name} ${report.pack.version}`);
  const list = (label: string, names: string[]) => names.length > 0 && writeLine(output.stdout, `  ${label} (${names.length}): ${names.join(", ")}`);
  list("skills", imported.skills);
  list("commands", imported.commands);
  list("agents", imported.agents);
  list("hooks", imported.hooks.map((hook) => `${hook.name} (${hook.event})`));
  list("settings", imported.settings);
  if (imported.files > 0) writeLine(output.stdout, `  support files: ${imported.files} under files/`);
  for (const name of report.secrets) writeLine(output.stdout, `  env.${name} looked like a secret: the pack says {env:${name}}, the value was not copied`);
  if (report.skipped.length > 0) writeLine(output.stdout, `not imported (${report.skipped.length}):`);
  for (const skip of report.skipped) writeLine(output.stdout, `  ${skip.what}: ${skip.why}`);
  writeLine(output.stdout, `checked (a dry-run install in a scratch home): ${checks.map((check) => `${check.runtime} ${check.ok ? "ok" : "refused"}`).join(", ")}`);
  for (const check of checks) if (!check.ok) writeLine(output.stdout, `  ${check.runtime}: ${check.problem}`);
  writeLine(output.stdout, `install it: bosun install ${displayPath(report.pack.dir, home)} --runtime codex,opencode --scope global`);
}
