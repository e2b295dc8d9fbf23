import { packageVersion } from "../boot/package-info.js";
import { reportError } from "./errors.js";
import { fastPath } from "./fast-path.js";
import { processOutput, writeLine, type Output } from "./output.js";

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
      await fast.run(fast.options, output);
      return 0;
    }
    const [{ Command }, { registerStatus }, { registerMigrate }, { registerAgents }, { registerRun }, { registerSessions }, { registerInstall }] = await Promise.all([
      import("commander"),
      import("./status.js"),
      import("./migrate.js"),
      import("./agents.js"),
      import("./run.js"),
      import("./sessions.js"),
      import("./install.js"),
    ]);
    const program = new Command("bosun")
      .description("A host for AI coding agents: which agents you have, one workflow pack for all of them, one model catalog, and bosun's own agent.")
      .version(packageVersion(), "-V, --version")
      .exitOverride()
      // `bosun agents --json` and `bosun agents login codex --json` each get their own --json.
      .enablePositionalOptions()
      .showHelpAfterError("(run bosun --help for usage)")
      .configureOutput({
        writeOut: (text) => output.stdout.write(text),
        writeErr: (text) => output.stderr.write(text),
        outputError: (text, write) => write(`bosun: ${text.replace(/^error: /, "")}`),
      });
    registerStatus(program, output);
    registerMigrate(program, output);
    registerAgents(program, output);
    registerRun(program, output);
    registerSessions(program, output);
    registerInstall(program, output);
    await program.parseAsync(withDefaultCommand(argv), { from: "user" });
    return 0;
  } catch (error) {
    return reportError(error, output);
  }
}

/** `bosun` alone is `bosun status`, and so is `bosun --json`. */
function withDefaultCommand(argv: string[]): string[] {
  if (argv.length === 0 || argv[0] === "--json") return ["status", ...argv];
  return argv;
}
