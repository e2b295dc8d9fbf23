import type { Env } from "../boot/paths.js";

/**
 * The environment an agent sees when you start it: bosun's, without the variables bosun's own
 * `.env` added (the agents never read that file; a key there must not make them look signed in,
 * or change what they load).
 */
export function agentEnvironment(env: Env, fromDotenv: readonly string[]): Env {
  const out: Env = { ...env };
  for (const name of fromDotenv) delete out[name];
  return out;
}
