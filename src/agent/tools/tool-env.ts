import type { Env } from "../../kernel/paths.js";
import { MIN_SECRET_LENGTH } from "../../kernel/redact/redact.js";
import { SECRET_ENV_NAME } from "../../kernel/redact/secrets.js";
import { urlPassword } from "../../kernel/redact/url-password.js";

/** What `toolEnv` keeps out of a tool process's environment, and what it lets through anyway. */
export interface ToolEnvRules {
  /** Env var names that hold credentials bosun knows (agents' sign-in vars, provider key vars, bosun.json `secrets`). */
  secretNames: Iterable<string>;
  /** Names the user allows through anyway (bosun.json `sandbox.env`). */
  allow: Iterable<string>;
}

/**
 * The environment for a tool process: `env` without every variable that holds a secret — named
 * in `secretNames`, matching SECRET_ENV_NAME, or a URL with a password — unless allowed by name.
 * A variable that holds a copy of a dropped one's value under an innocent name
 * (`MY_THING=$OPENAI_API_KEY`, or `PW=` the password of a dropped URL) is dropped too, when the value is long enough to be a secret at
 * all (MIN_SECRET_LENGTH). Undefined values are left out; `dropped` lists the names, sorted.
 */
export function toolEnv(env: Env, rules: ToolEnvRules): { env: Record<string, string>; dropped: string[] } {
  const secretNames = new Set(rules.secretNames);
  const allow = new Set(rules.allow);
  const kept: [string, string][] = [];
  const dropped: string[] = [];
  const droppedValues = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!allow.has(name) && (secretNames.has(name) || SECRET_ENV_NAME.test(name) || urlPassword(value) !== null)) {
      dropped.push(name);
      if (value.length >= MIN_SECRET_LENGTH) droppedValues.add(value);
      const password = urlPassword(value);
      if (password && password.length >= MIN_SECRET_LENGTH) droppedValues.add(password);
    } else {
      kept.push([name, value]);
    }
  }
  const passed: [string, string][] = [];
  for (const [name, value] of kept) {
    if (allow.has(name) || !droppedValues.has(value)) passed.push([name, value]);
    else dropped.push(name);
  }
  // fromEntries defines each name as its own property, even one called `__proto__`.
  return { env: Object.fromEntries(passed), dropped: dropped.sort() };
}
