import type { MiddlewareHandler } from "hono";

/** The page may load only what the dashboard serves itself: no inline script, no other host, no frames. */
export const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const HEADERS: [string, string][] = [
  ["Content-Security-Policy", CONTENT_SECURITY_POLICY],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "no-referrer"],
  // Nothing is cached (a route that can be cached says so itself).
  ["Cache-Control", "no-store"],
];

/**
 * The headers every answer gets (and no CORS header, ever). Set before the route runs, so the
 * answer is made with them (setting them after would copy every response).
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    for (const [name, value] of HEADERS) c.header(name, value);
    await next();
  };
}
