import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Context } from "hono";
import { problem } from "./problem.js";

const TYPES: Record<string, string> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8" };

/**
 * The page's only scripts and styles, read once at start and served from memory: htmx (from its
 * package), bosun's live-stream script and its stylesheet (`assets/web/` of the package). No CDN,
 * no font, nothing from another host.
 */
export class StaticAssets {
  private readonly files: Map<string, { body: string; type: string }>;

  constructor(packageRoot: string) {
    const htmx = createRequire(import.meta.url).resolve("htmx.org/dist/htmx.min.js");
    const entries: [string, string][] = [
      ["htmx.min.js", htmx],
      ["bosun-live.js", join(packageRoot, "assets", "web", "bosun-live.js")],
      ["bosun.css", join(packageRoot, "assets", "web", "bosun.css")],
    ];
    this.files = new Map(entries.map(([name, file]) => [name, { body: readFileSync(file, "utf8"), type: TYPES[name.split(".").pop() as string] as string }]));
  }

  /** The names and sizes of what is served (the client-JS budget is checked on these). */
  sizes(): Record<string, number> {
    return Object.fromEntries([...this.files].map(([name, file]) => [name, Buffer.byteLength(file.body)]));
  }

  serve(c: Context, name: string): Response {
    const file = this.files.get(name);
    if (!file) return problem(c, 404, `no asset ${name}`);
    c.header("Content-Type", file.type);
    return c.body(file.body);
  }
}
