import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { problem } from "../problem.js";
import { SESSION_COOKIE, type DashboardAuth } from "./dashboard-auth.js";

/** The signed-in session of a request (set by `sessionGate`). */
export function sessionOf(c: Context): string {
  return c.get("session" as never) as string;
}

/**
 * `GET /auth?token=…`: a launch link. A token that works sets the session cookie (HttpOnly,
 * SameSite=Strict, the whole site) and redirects (303) to the page without it, so the token
 * leaves the address bar and the history; one that was used or expired is refused with what to do.
 */
export function launchRoute(auth: DashboardAuth): (c: Context) => Response {
  return (c) => {
    c.header("Referrer-Policy", "no-referrer");
    if (!auth.redeem(c.req.query("token"))) return problem(c, 403, "this launch link was used already or has expired: press Enter in the terminal where bosun serve runs for a new one");
    setCookie(c, SESSION_COOKIE, auth.newSession(), { httpOnly: true, sameSite: "Strict", path: "/" });
    return c.redirect("/", 303);
  };
}

/**
 * Every other request needs the session cookie (401 otherwise), and one that changes something
 * the session's CSRF token in `x-bosun-csrf` (403): never from a cookie, which any page of this
 * machine's other ports would send along.
 */
export function sessionGate(auth: DashboardAuth): MiddlewareHandler {
  return async (c, next) => {
    const session = auth.sessionOf(getCookie(c, SESSION_COOKIE));
    if (session === null) return problem(c, 401, "not signed in: open the link bosun serve printed (press Enter in its terminal for a new one)");
    if (!["GET", "HEAD"].includes(c.req.method) && !auth.csrfValid(session, c.req.header("x-bosun-csrf"))) return problem(c, 403, "the request lacks this page's CSRF token; reload the page");
    c.set("session" as never, session as never);
    await next();
  };
}
