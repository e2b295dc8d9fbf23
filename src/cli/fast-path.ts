import type { Output, Verbosity } from "./output.js";
import { verbosityOf } from "./verbosity.js";

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

/** The flags of `bosun status` and `bosun agents`; `bosun` with only these is `bosun status`. */
export const STATUS_FLAGS: ReadonlySet<string> = new Set(["--json", "-q", "--quiet", "--verbose"]);

/**
 * The fast path for `bosun`, `bosun --json`, `bosun status` and `bosun agents`, each with any of
 * `--json`, `--quiet` and `--verbose`: the same action as through commander, without loading it
 * (it is the largest part of a start). Anything else, or a flag given twice, goes through
 * commander; `--quiet` with `--verbose` is the same usage error as there.
 */
export async function fastPath(argv: string[]): Promise<FastPath | undefined> {
  const [command = "status", ...flags] = argv[0]?.startsWith("-") ? ["status", ...argv] : argv;
  const load = Object.hasOwn(FAST_COMMANDS, command) ? FAST_COMMANDS[command] : undefined;
  const named = flags.map((flag) => (flag === "-q" ? "--quiet" : flag));
  if (!load || !flags.every((flag) => STATUS_FLAGS.has(flag)) || new Set(named).size !== named.length) return undefined;
  const verbosity = verbosityOf(named.includes("--quiet"), named.includes("--verbose"));
  return { run: await load(), options: named.includes("--json") ? { json: true } : {}, verbosity };
}
