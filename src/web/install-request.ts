import { QueryError } from "./catalog-query.js";
import type { InstallRequest } from "./sources.js";

const RUNTIME_ID = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * An install request from the page's form or the API's JSON body, checked: `runtimes` (ids, one or
 * more), `scope` (global or local), `pack` (a folder; empty: bosun's own). Bad input is a
 * `QueryError` naming the field (a 400). Pure.
 */
export function installRequest(body: unknown): InstallRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new QueryError("the request body must be a JSON object with runtimes, scope and (optionally) pack");
  const fields = body as Record<string, unknown>;
  const runtimes = typeof fields.runtimes === "string" ? [fields.runtimes] : fields.runtimes;
  if (!Array.isArray(runtimes) || runtimes.length === 0) throw new QueryError("runtimes: choose at least one runtime");
  if (runtimes.length > 64 || !runtimes.every((id) => typeof id === "string" && RUNTIME_ID.test(id))) throw new QueryError("runtimes: use runtime ids such as claude, codex");
  if (fields.scope !== "global" && fields.scope !== "local") throw new QueryError("scope: use global or local");
  if (fields.pack !== undefined && (typeof fields.pack !== "string" || fields.pack.length > 4096)) throw new QueryError("pack: use a folder path");
  const pack = typeof fields.pack === "string" && fields.pack.trim() !== "" ? fields.pack.trim() : undefined;
  return { runtimes: [...new Set(runtimes as string[])], scope: fields.scope, ...(pack ? { pack } : {}) };
}

/**
 * An apply request: the install request, the `planId` the page was shown, and the answers to its
 * questions — JSON `choices: {"<dir>|<path>": "keep" | "remove"}`, or the form's `question-N` /
 * `choice-N` pairs.
 */
export function applyRequest(body: unknown): InstallRequest & { planId: string; choices: Record<string, "keep" | "remove"> } {
  const request = installRequest(body);
  const fields = body as Record<string, unknown>;
  if (typeof fields.planId !== "string" || !/^[0-9a-f]{32}$/.test(fields.planId)) throw new QueryError("planId: apply the plan the page showed (plan again)");
  const choices: Record<string, "keep" | "remove"> = {};
  const given = typeof fields.choices === "object" && fields.choices !== null ? Object.entries(fields.choices as Record<string, unknown>) : Object.entries(fields).flatMap(([name, key]) => (name.startsWith("question-") ? [[String(key), fields[`choice-${name.slice("question-".length)}`]] as [string, unknown]] : []));
  for (const [key, choice] of given) {
    if (choice !== "keep" && choice !== "remove") throw new QueryError(`choices: use keep or remove for ${key}`);
    choices[key] = choice;
  }
  return { ...request, planId: fields.planId, choices };
}
