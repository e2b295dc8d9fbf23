import { packageVersion } from "../kernel/package-info.js";
import { guideUsageErrors, reportError } from "./errors.js";
import { fastPath, STATUS_FLAGS } from "./fast-path.js";
import { installArgv } from "./install-argv.js";
import { processOutput, writeLine, type Output } from "./output.js";
import { addVerbosityFlags } from "./verbosity.js";

/**
 * bosun's command line. Returns the exit code. `--version` answers before anything else is
 * loaded, the most frequent read commands run without loading the argument parser, and each
 * command loads only what it uses, so a start stays close to bare Node.
 */
export async function main(argv: string[], output: Output = processOutput()): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    writeLine(output.stdout, packageVersion());
    return 0;
  }
  try {
    const fast = await fastPath(argv);
    if (fast) {
      output.verbosity = fast.verbosity;
      await fast.run(fast.options, output);
      return 0;
    }
    // A reinstall, the command scripts run most: its usual flags without commander (install-argv.ts).
    const install = argv[0] === "install" ? installArgv(argv.slice(1)) : undefined;
    if (install) {
      output.verbosity = install.verbosity;
      await (await import("./install.js")).installAction(install.pack, install.flags, output);
      return 0;
    }
    const { Command } = await import("commander");
    const args = withDefaultCommand(argv);
    const program = new Command("bosun")
      .description("A host for AI coding agents: which agents you have, one workflow pack for all of them, one model catalog, and bosun's own agent.")
      .version(packageVersion(), "-V, --version")
      .exitOverride()
      // `bosun agents --json` and `bosun agents login codex --json` each get their own --json.
      .enablePositionalOptions()
      .configureOutput({
        writeOut: (text) => output.stdout.write(text),
        writeErr: (text) => output.stderr.write(text),
        outputError: (text, write) => write(`bosun: ${text.replace(/^error: /, "")}`),
      });
    for (const register of await registrations(args[0])) register(program, output);
    addVerbosityFlags(program, output);
    guideUsageErrors(program);
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    return reportError(error, output);
  }
}

type Register = (program: import("commander").Command, output: Output) => void;

/** Each command's module, loaded only when needed. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  status: async () => (await import("./status.js")).registerStatus,
  migrate: async () => (await import("./migrate.js")).registerMigrate,
  config: async () => (await import("./config.js")).registerConfig,
  agents: async () => (await import("./agents.js")).registerAgents,
  models: async () => (await import("./models.js")).registerModels,
  policy: async () => (await import("./policy.js")).registerPolicy,
  auth: async () => (await import("./auth.js")).registerAuth,
  run: async () => (await import("./run.js")).registerRun,
  sessions: async () => (await import("./sessions.js")).registerSessions,
  worktrees: async () => (await import("./worktrees.js")).registerWorktrees,
  worker: async () => (await import("./worker.js")).registerWorker,
  queue: async () => (await import("./worker.js")).registerWorker,
  install: async () => (await import("./install.js")).registerInstall,
  uninstall: async () => (await import("./install.js")).registerInstall,
  pack: async () => (await import("./pack.js")).registerPack,
  doctor: async () => (await import("./doctor.js")).registerDoctor,
  mcp: async () => (await import("./mcp.js")).registerMcp,
  serve: async () => (await import("./serve.js")).registerServe,
  completion: async () => (await import("./completion.js")).registerCompletion,
};

/**
 * The commands to register: only the one named, so a command does not pay for loading the
 * others; all of them for help, a flag or an unknown name (so commander can list or suggest),
 * and for `completion`, whose script covers every command.
 */
function registrations(name: string | undefined): Promise<Register[]> {
  const only = name !== undefined && name !== "completion" && Object.hasOwn(COMMANDS, name) ? [COMMANDS[name]!] : Object.values(COMMANDS);
  // One module may register several commands (install and uninstall): register it once.
  return Promise.all(only.map((load) => load())).then((registers) => [...new Set(registers)]);
}

/** `bosun` alone is `bosun status`, and so is `bosun` with only status's flags (`--json`, `--quiet`…). */
function withDefaultCommand(argv: string[]): string[] {
  if (argv.every((arg) => STATUS_FLAGS.has(arg))) return ["status", ...argv];
  return argv;
}
