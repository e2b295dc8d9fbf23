/**
 * The names the dashboard answers to: the loopback names with its port (`127.0.0.1:PORT`,
 * `localhost:PORT`, `[::1]:PORT`), and one exact name given with `--host` (never a wildcard).
 * A `Host` header that is not one of them is a page reached through another name (DNS
 * rebinding: the browser thinks it talks to the attacker's site); an empty or missing one is
 * refused too. Compared without case. Pure.
 */
export function allowedHosts(port: number, extra: readonly string[] = []): Set<string> {
  return new Set(["127.0.0.1", "localhost", "[::1]", ...extra].map((name) => `${name.toLowerCase()}:${port}`));
}

/** The origins pages of the dashboard have: `http://` and each allowed host. */
export function allowedOrigins(hosts: ReadonlySet<string>): Set<string> {
  return new Set([...hosts].map((host) => `http://${host}`));
}

/** Whether a `Host` header names the dashboard (exactly one of `hosts`, without case). */
export function isAllowedHost(header: string | undefined, hosts: ReadonlySet<string>): boolean {
  if (header === undefined || header.trim() === "") return false;
  return hosts.has(header.trim().toLowerCase());
}
