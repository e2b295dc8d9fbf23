import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * A refusal or an error, in one line the page shows: JSON `{ error }` for the API and for htmx
 * requests (the page puts it in its message area), plain text otherwise.
 */
export function problem(c: Context, status: ContentfulStatusCode, message: string): Response {
  if (c.req.path.startsWith("/api/") || c.req.header("hx-request") === "true" || (c.req.header("accept") ?? "").includes("application/json")) return c.json({ error: message }, status);
  return c.text(`bosun: ${message}\n`, status);
}
