import { MAX_LIMIT } from "../app/mcp-server/catalog-search-tool.js";
import type { CatalogQuery } from "./sources.js";

/** The most models one search shows (the catalog search's own limit). */
export const MAX_CATALOG_LIMIT = MAX_LIMIT;

/** A bad query parameter: the 400's one line names it. */
export class QueryError extends Error {
  override name = "QueryError";
}

/** The catalog search of a request's query (`q`, `provider`, `available=1`, `limit`), checked. Pure. */
export function catalogQuery(params: Record<string, string | undefined>): CatalogQuery {
  const limitText = params.limit ?? "100";
  if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_CATALOG_LIMIT) throw new QueryError(`limit: use a whole number from 1 to ${MAX_CATALOG_LIMIT}`);
  if (params.available !== undefined && !["", "0", "1"].includes(params.available)) throw new QueryError("available: use 1 (only available providers) or 0");
  for (const name of ["q", "provider"] as const) if ((params[name] ?? "").length > 200) throw new QueryError(`${name}: use at most 200 characters`);
  const query = params.q?.trim();
  const provider = params.provider?.trim();
  return { ...(query ? { query } : {}), ...(provider ? { provider } : {}), ...(params.available === "1" ? { availableOnly: true } : {}), limit: Number(limitText) };
}
