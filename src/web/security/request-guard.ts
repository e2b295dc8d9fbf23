import type { MiddlewareHandler } from "hono";
import { allowedOrigins, isAllowedHost } from "./allowed-hosts.js";
import { problem } from "../problem.js";

/**
 * The first check of every request, SSE included, before any work (reference: dashboard.md §4.4):
 * 1. `Host` must be one of the dashboard's names (421 otherwise: a rebound name, or none);
 * 2. `Sec-Fetch-Site`, when the browser sends it, must be `same-origin` or `none` (the user
 *    opening the URL): a page of another site, or another port of this machine (`same-site`), is
 *    refused (403) whatever it asks;
 * 3. `Origin`, when present, must be one of the dashboard's origins, and a request that changes
 *    something must have one (403).
 */
export function requestGuard(allowed: () => ReadonlySet<string>): MiddlewareHandler {
  let seen: ReadonlySet<string> | null = null;
  let origins = new Set<string>();
  return async (c, next) => {
    const hosts = allowed();
    if (hosts !== seen) {
      seen = hosts;
      origins = allowedOrigins(hosts);
    }
    if (!isAllowedHost(c.req.header("host"), hosts)) return problem(c, 421, `this dashboard answers only at ${[...hosts].join(", ")}`);
    const site = c.req.header("sec-fetch-site");
    if (site !== undefined && site !== "same-origin" && site !== "none") return problem(c, 403, `a request from another site (${site}) is refused`);
    const origin = c.req.header("origin");
    if (origin !== undefined && !origins.has(origin.toLowerCase())) return problem(c, 403, "a request from another origin is refused");
    if (origin === undefined && !["GET", "HEAD"].includes(c.req.method)) return problem(c, 403, "a request that changes something must come from the dashboard's own page (no Origin header)");
    await next();
  };
}
