import type { InstallFlags } from "./install.js";
import type { Verbosity } from "./output.js";
import { verbosityOf } from "./verbosity.js";

/** `bosun install` read without the argument parser: its pack, its flags as commander gives them, and the verbosity. */
export interface InstallArgv {
  pack: string | undefined;
  flags: InstallFlags;
  verbosity: Verbosity;
}

// The flags scripts and hooks pass on every reinstall (`bosun install PACK --runtime claude --scope
// global --yes`); each value flag takes the next word. Anything else goes through commander.
const VALUE_FLAGS: Record<string, "runtime" | "scope"> = { "--runtime": "runtime", "--scope": "scope" };
const SWITCHES: Record<string, "yes" | "json" | "dryRun" | "allDetected" | "noVerify" | "quiet" | "verbose"> = {
  "--yes": "yes",
  "--json": "json",
  "--dry-run": "dryRun",
  "--all-detected": "allDetected",
  "--no-verify": "noVerify",
  "-q": "quiet",
  "--quiet": "quiet",
  "--verbose": "verbose",
};

/**
 * `bosun install` (the words after it) with at most one pack folder, `--runtime R` (repeatable,
 * as commander collects it), `--scope S`, `--yes`, `--json`, `--dry-run`, `--all-detected`,
 * `--no-verify`, `--quiet` and `--verbose`, each flag once: the flags commander would give the
 * action, its defaults included, so the action runs as it would through commander (commander is
 * the largest part of a start, and a settled reinstall is about as short as a command gets).
 * Undefined for anything else (another flag, `--flag=value`, a value that looks like a flag, a
 * flag given twice, a second pack, `--`): commander parses it and reports its errors.
 * `--quiet` with `--verbose` is the same usage error as there.
 */
export function installArgv(words: readonly string[]): InstallArgv | undefined {
  let pack: string | undefined;
  const runtime: string[] = [];
  const given = new Set<string>();
  const values: Partial<Record<"scope", string>> = {};
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    const valueFlag = Object.hasOwn(VALUE_FLAGS, word) ? VALUE_FLAGS[word] : undefined;
    if (valueFlag) {
      const value = words[++index];
      if (value === undefined || value.startsWith("-")) return undefined;
      if (valueFlag === "runtime") runtime.push(value);
      else if (values.scope !== undefined) return undefined;
      else values.scope = value;
      continue;
    }
    const name = Object.hasOwn(SWITCHES, word) ? SWITCHES[word] : undefined;
    if (name) {
      if (given.has(name)) return undefined;
      given.add(name);
      continue;
    }
    if (word.startsWith("-") || pack !== undefined) return undefined;
    pack = word;
  }
  const verbosity = verbosityOf(given.has("quiet"), given.has("verbose"));
  // As commander gives them: defaults first (`--lock-timeout 30`, verify on), then what was given.
  const flags: InstallFlags = { lockTimeout: "30", verify: !given.has("noVerify") };
  if (runtime.length > 0) flags.runtime = runtime;
  if (values.scope !== undefined) flags.scope = values.scope;
  for (const name of ["yes", "json", "dryRun", "allDetected"] as const) if (given.has(name)) flags[name] = true;
  return { pack, flags, verbosity };
}
