import type { ActionOrigin, PlannedAction } from "./plan-types.js";

/**
 * A config file bosun must edit but will not (it does not parse, a slot has the wrong type, the
 * pack's value cannot go there): the install fails naming it, before anything is written.
 */
export function blockedConfigEdit(origin: ActionOrigin, file: string, problem: string, contract: string | undefined, reason: string, evidence: string): Omit<PlannedAction, "index"> {
  return { origin, type: "rewrite-json", rel: file, classification: "unknown", reason, evidence, originalHash: null, currentHash: null, ...(contract ? { contract } : {}), blocked: problem };
}
