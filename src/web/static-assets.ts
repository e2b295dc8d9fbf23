import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Context } from "hono";
import { problem } from "./problem.js";

const TYPES: Record<string, string> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8" };

/** How long a browser keeps an asset asked for by its version (its content's hash): a year, never asked again. */
const VERSIONED = "private, max-age=31536000, immutable";

interface Asset {
  body: Buffer;
  /** The same, gzipped once at start. */
  gzip: Buffer;
  type: string;
  /** The first 16 hex digits of its SHA-256: the `?v=` of its URL. */
  version: string;
}

/**
 * The page's only scripts and styles, read once at start and served from memory: htmx (from its
 * package), bosun's live-stream script and its stylesheet (`assets/web/` of the package). No CDN,
 * no font, nothing from another host. The pages link each by its version (`url`): asked for with
 * that version it is cached by the browser for good (a new bosun has new versions, so new URLs);
 * without it, or with another, it is not cached. Sent gzipped to a browser that takes it.
 */
export class StaticAssets {
  private readonly files: Map<string, Asset>;

  constructor(packageRoot: string) {
    const htmx = createRequire(import.meta.url).resolve("htmx.org/dist/htmx.min.js");
    const entries: [string, string][] = [
      ["htmx.min.js", htmx],
      ["bosun-live.js", join(packageRoot, "assets", "web", "bosun-live.js")],
      ["bosun.css", join(packageRoot, "assets", "web", "bosun.css")],
    ];
    this.files = new Map(
      entries.map(([name, file]) => {
        const body = readFileSync(file);
        const asset: Asset = { body, gzip: gzipSync(body, { level: 9 }), type: TYPES[name.split(".").pop() as string] as string, version: createHash("sha256").update(body).digest("hex").slice(0, 16) };
        return [name, asset];
      }),
    );
  }

  /** The URL a page links `name` by: with its version, so the browser may keep it. */
  url(name: string): string {
    const file = this.files.get(name);
    if (!file) throw new Error(`no asset ${name}`);
    return `/assets/${name}?v=${file.version}`;
  }

  serve(c: Context, name: string): Response {
    const file = this.files.get(name);
    if (!file) return problem(c, 404, `no asset ${name}`);
    c.header("Content-Type", file.type);
    c.header("Vary", "Accept-Encoding");
    if (c.req.query("v") === file.version) c.header("Cache-Control", VERSIONED);
    const gzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    if (gzip) c.header("Content-Encoding", "gzip");
    return c.body(new Uint8Array(gzip ? file.gzip : file.body));
  }
}
