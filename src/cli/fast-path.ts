import type { Output, Verbosity } from "./output.js";

/** A read command run without the argument parser, with its flags. */
export interface FastPath {
  run(options: { json?: boolean }, output: Output): Promise<void>;
  options: { json?: boolean };
  verbosity: Verbosity;
}

// Commands that hooks and scripts run often, keyed by their exact argv. Anything else (other
// flags, --help, typos) goes through commander as usual.
const FAST_COMMANDS: Record<string, () => Promise<FastPath["run"]>> = {
  status: async () => (await import("./status.js")).runStatus,
  agents: async () => (await import("./agents.js")).listAgents,
};

const FAST_FLAGS = new Set(["--json", "-q", "--quiet", "--verbose"]);

/**
 * The fast path for `bosun`, `bosun --json`, `bosun status` and `bosun agents`, each with any of
 * `--json`, `--quiet` and `--verbose`: the same action as through commander, without loading it
 * (it is the largest part of a start). Anything else, a flag twice, or both `--quiet` and
 * `--verbose` (an error commander reports), goes through commander.
 */
export async function fastPath(argv: string[]): Promise<FastPath | undefined> {
  const [command = "status", ...flags] = argv[0]?.startsWith("-") ? ["status", ...argv] : argv;
  const load = Object.hasOwn(FAST_COMMANDS, command) ? FAST_COMMANDS[command] : undefined;
  if (!load || !flags.every((flag) => FAST_FLAGS.has(flag)) || new Set(flags).size !== flags.length) return undefined;
  const quiet = flags.includes("-q") || flags.includes("--quiet");
  const verbose = flags.includes("--verbose");
  if ((quiet && verbose) || (flags.includes("-q") && flags.includes("--quiet"))) return undefined;
  return { run: await load(), options: flags.includes("--json") ? { json: true } : {}, verbosity: quiet ? "quiet" : verbose ? "verbose" : "normal" };
}
