import { isAbsolute, resolve } from "node:path";
import { expandHome, type Env } from "../../../kernel/paths.js";

/**
 * An environment variable counts when it holds any text: empty is absent, whitespace-only is
 * present (not trimmed), as the agents themselves read them.
 */
export function envIsSet(env: Env, name: string): boolean {
  const value = env[name];
  return typeof value === "string" && value !== "";
}

/** The first variable of `names` that is set, in the order given. */
export function firstSetEnvVar(env: Env, names: readonly string[]): string | undefined {
  return names.find((name) => envIsSet(env, name));
}

/** Names held as a set are checked in code-point order, so the reported one is deterministic. */
export function codePointSorted(names: Iterable<string>): string[] {
  return [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A folder named by an environment variable (`CODEX_HOME`, `CURSOR_HOME`…): trimmed, `~`
 * expanded, made absolute against `cwd`. Unset or blank → undefined (the default applies).
 */
export function envPath(env: Env, name: string, home: string, cwd: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const expanded = expandHome(value, home);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}
