import type { Output } from "./output.js";

/** A read command run without the argument parser, and its one flag. */
export interface FastPath {
  run(options: { json?: boolean }, output: Output): Promise<void>;
  options: { json?: boolean };
}

// Commands that hooks and scripts run often, keyed by their exact argv. Anything else (other
// flags, --help, typos) goes through commander as usual.
const FAST_COMMANDS: Record<string, () => Promise<FastPath["run"]>> = {
  status: async () => (await import("./status.js")).runStatus,
  agents: async () => (await import("./agents.js")).listAgents,
};

/**
 * The fast path for `bosun`, `bosun --json`, `bosun status [--json]` and `bosun agents [--json]`:
 * the same action as through commander, without loading it (it is the largest part of a start).
 */
export async function fastPath(argv: string[]): Promise<FastPath | undefined> {
  const [command = "status", ...flags] = argv[0] === "--json" ? ["status", ...argv] : argv;
  const load = Object.hasOwn(FAST_COMMANDS, command) ? FAST_COMMANDS[command] : undefined;
  if (!load || flags.length > 1 || (flags.length === 1 && flags[0] !== "--json")) return undefined;
  return { run: await load(), options: flags.length === 1 ? { json: true } : {} };
}
