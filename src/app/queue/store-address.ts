import { UserError } from "../../kernel/errors.js";
import type { Env } from "../../kernel/paths.js";

/** The queue's store as `bosun.json` `subagents` names it, with `{env:NAME}` read. */
export interface StoreAddress {
  backend: "redis" | "postgres";
  url: string;
  /** The address as the user may see it: without its password. */
  shown: string;
  /** The queue's name: workers started with `--queue NAME` take only its tasks. */
  queue: string;
  /** Run the tasks here when the store cannot be reached (`fallback: "local"`). */
  fallback: boolean;
}

export const DEFAULT_QUEUE = "bosun";

/** Wrong or missing store settings: one line naming what to fix. */
export class StoreAddressError extends UserError {
  override name = "StoreAddressError";
}

/** `subagents` as `bosun.json` has it (already checked by its schema). */
export interface QueueSettings {
  backend?: string;
  url?: string | { env: string };
  queue?: string;
  fallback?: "local";
}

/**
 * The store of `subagents.backend`, or null when tasks run here ("local", the default). A
 * `{env:NAME}` address must be set in the environment; `--queue` (a worker's) overrides the name.
 */
export function storeAddress(settings: QueueSettings | undefined, env: Env, queueOverride?: string): StoreAddress | null {
  const backend = settings?.backend ?? "local";
  if (backend === "local") return null;
  if (backend !== "redis" && backend !== "postgres") throw new StoreAddressError(`bosun.json subagents.backend: "${backend}" is not a backend; use "local", "redis" or "postgres"`);
  const written = settings?.url;
  if (written === undefined) throw new StoreAddressError(`bosun.json subagents.url: backend "${backend}" needs the store's address (or {"env": "NAME"})`);
  const url = typeof written === "string" ? written : env[written.env];
  if (url === undefined || url === "") throw new StoreAddressError(`bosun.json subagents.url: the environment variable ${(written as { env: string }).env} is not set; set it to the ${backend} store's address`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreAddressError(`bosun.json subagents.url: ${typeof written === "string" ? JSON.stringify(url) : `the value of ${(written as { env: string }).env}`} is not an address; use ${backend === "redis" ? "redis://host:6379" : "postgres://user@host:5432/database"}`);
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  const fits = backend === "redis" ? scheme === "redis" || scheme === "rediss" : scheme === "postgres" || scheme === "postgresql";
  if (!fits) throw new StoreAddressError(`bosun.json subagents.url: backend "${backend}" needs a ${backend === "redis" ? "redis:// (or rediss://)" : "postgres://"} address, not ${scheme}://`);
  const queue = queueOverride ?? settings?.queue ?? DEFAULT_QUEUE;
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(queue)) throw new StoreAddressError(`queue name ${JSON.stringify(queue)}: use up to 40 lowercase letters, digits, - and _`);
  return { backend, url, shown: withoutPassword(parsed), queue, fallback: settings?.fallback === "local" };
}

/** An address with its password (and any secret query) left out. */
function withoutPassword(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = "***";
  copy.search = "";
  return copy.href.replace(/\/$/, "");
}
