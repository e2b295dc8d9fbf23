import { UserError } from "../kernel/errors.js";
import { a0 } from "./a0.js";
import { claude } from "./claude.js";
import { codex } from "./codex.js";
import { cursor } from "./cursor.js";
import { gemini } from "./gemini.js";
import { grok } from "./grok.js";
import { hermes } from "./hermes.js";
import { opencode } from "./opencode.js";
import type { Runtime } from "./kit/types.js";

/** Every runtime bosun knows, in display order. `a0` stays first: it is the setup exception. */
const RUNTIMES: readonly Runtime[] = [a0, codex, claude, cursor, gemini, grok, hermes, opencode];

export function listRuntimes(): readonly Runtime[] {
  return RUNTIMES;
}

/** An agent id bosun does not know; lists the ones it does, alphabetically. */
export class UnknownRuntimeError extends UserError {
  override name = "UnknownRuntimeError";
  constructor(
    readonly given: string,
    readonly available: string[],
  ) {
    super(`unknown agent ${JSON.stringify(given.slice(0, 60))}; available: ${available.join(", ")}`);
  }
}

/** The runtime for an id (trimmed, any case). */
export function getRuntime(id: string): Runtime {
  const runtime = findById(RUNTIMES, id);
  if (!runtime) throw new UnknownRuntimeError(id, RUNTIMES.map((candidate) => candidate.id).sort());
  return runtime;
}

/** The entry of a registry with this id, as a user typed it (trimmed, any case). */
export function findById<T extends { id: string }>(list: readonly T[], id: string): T | undefined {
  const wanted = id.trim().toLowerCase();
  return list.find((candidate) => candidate.id === wanted);
}
