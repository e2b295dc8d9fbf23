import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectAgentReports, reportRuntime } from "../../src/runtimes/collect-status.js";
import { CredentialReadError } from "../../src/runtimes/detect/file-reader.js";
import type { Runtime } from "../../src/runtimes/types.js";
import { runBin } from "../fixtures/cli.js";
import { CREDENTIAL_STORES, storePath } from "../fixtures/credential-stores.js";
import { makeDetection, readerFailingAt } from "../fixtures/detection.js";
import { makeFifo, makeTempHome } from "../fixtures/temp-home.js";

type Oddity = (path: string) => void;

const ODDITIES: Record<string, Oddity> = {
  "a folder": (path) => mkdirSync(path, { recursive: true }),
  "a FIFO": (path) => makeFifo(path),
  "a broken symlink": (path) => symlinkSync(join(dirname(path), "gone-away"), path),
  "invalid JSON/TOML": (path) => writeFileSync(path, '{"tokens": {"access_token": "x", [[[ = = ]'),
  "a 50 MB file": (path) => {
    writeFileSync(path, "");
    truncateSync(path, 50 * 1024 * 1024);
  },
  "bytes that are not UTF-8": (path) => writeFileSync(path, Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0xa0, 0xa1, 0x22, 0x7d])),
};

const DISPLAY_SAFE = /^cannot read \/\S+: (is not a regular file|is larger than 1 MiB|is not UTF-8 text|permission denied \(EACCES\))$/;

describe("odd credential files", () => {
  for (const [name, make] of Object.entries(ODDITIES)) {
    it(`${name} in every store: not signed in or a display-safe error, no crash, no hang`, async () => {
      const t = makeDetection({ env: { GOOGLE_APPLICATION_CREDENTIALS: "~/service-account.json" } });
      for (const store of CREDENTIAL_STORES) {
        const path = storePath(store, t.home, t.ctx.dataDir);
        mkdirSync(dirname(path), { recursive: true });
        make(path);
      }
      const started = Date.now();
      const reports = await collectAgentReports(t.ctx, undefined);
      expect(Date.now() - started).toBeLessThan(2000);
      for (const report of reports) {
        // Claude and Gemini only look for a non-empty regular file (never read it), so any content counts;
        // Cursor and Grok fall back to a text scan, so invalid JSON naming a secret key counts, as in those CLIs.
        const regularFile = !["a folder", "a FIFO", "a broken symlink"].includes(name);
        // OpenCode's catalogue lists GOOGLE_APPLICATION_CREDENTIALS (Vertex), so it counts once its file check gets through.
        const opencodeReadsOn = !["a 50 MB file", "bytes that are not UTF-8"].includes(name);
        const expected =
          (regularFile && ["claude", "gemini"].includes(report.id)) || (name === "invalid JSON/TOML" && ["cursor", "grok"].includes(report.id)) || (report.id === "opencode" && opencodeReadsOn);
        expect(report.auth.connected, report.id).toBe(expected);
        if (report.auth.error) expect(report.auth.error, report.id).toMatch(DISPLAY_SAFE);
      }
      // Adapters that stop at an unreadable file say why; Codex and Gemini treat it as absent.
      const withError = reports.filter((report) => report.auth.error).map((report) => report.id);
      expect(withError).toEqual(["a 50 MB file", "bytes that are not UTF-8"].includes(name) ? ["cursor", "grok", "hermes", "opencode"] : []);
    });
  }

  it("stops reading at the size limit instead of loading a 50 MB file", async () => {
    const reads: number[] = [];
    const t = makeDetection();
    const big = t.put(".local/share/opencode/auth.json", "");
    truncateSync(big, 50 * 1024 * 1024);
    const files = { ...t.ctx.files, readText: (path: string, maxBytes: number) => (reads.push(maxBytes), t.ctx.files.readText(path, maxBytes)) };
    const [report] = await Promise.all([reportRuntime((await import("../../src/runtimes/opencode.js")).opencode, {}, { ...t.ctx, files })]);
    // Sign-in and disconnect each look once, never past the limit.
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((maxBytes) => maxBytes === 1024 * 1024)).toBe(true);
    expect(report!.auth.error).toBe(`cannot read ${big}: is larger than 1 MiB`);
  });

  it("turns anything an adapter throws into a display-safe error, and the others still report", async () => {
    const t = makeDetection();
    const throwing: Runtime = {
      id: "odd",
      title: "Odd",
      description: "",
      binary: "odd",
      installHint: "",
      loginHint: "",
      headless: { values: {} },
      status: {
        resolveBinary: () => {
          throw new Error("binary sk-live-SECRET");
        },
        isInstalled: () => true,
        authStatus: async () => {
          throw new SyntaxError('Unexpected token in JSON: {"api_key": "sk-live-SECRET"');
        },
        supportsDeviceLogin: () => false,
        planDisconnect: async () => {
          throw new Error("sk-live-SECRET");
        },
        dataDir: () => "",
      },
    };
    const report = await reportRuntime(throwing, {}, t.ctx);
    expect(report).toMatchObject({ binary: "odd", installed: false, canDisconnect: false, auth: { connected: false, mode: "", authPath: "", error: "status check failed (SyntaxError)" } });
    expect(JSON.stringify(report)).not.toContain("SECRET");
    const reader = readerFailingAt((path) => path.includes(".cursor"));
    const u = makeDetection({ files: reader, env: { XAI_API_KEY: "x" } });
    const reports = await collectAgentReports(u.ctx, undefined);
    expect(reports.find((r) => r.id === "cursor")!.auth.error).toBe(`cannot read ${join(u.home, ".cursor", "auth.json")}: permission denied (EACCES)`);
    expect(reports.find((r) => r.id === "grok")!.auth).toEqual({ connected: true, mode: "env", authPath: "XAI_API_KEY" });
    expect(new CredentialReadError("/x", "y").message).toBe("cannot read /x: y");
  });

  it("the CLI itself does not hang on a FIFO or a huge file", () => {
    const t = makeTempHome();
    mkdirSync(join(t.home, ".cursor"));
    makeFifo(join(t.home, ".cursor", "auth.json"));
    const big = t.write(join(t.home, ".hermes", "auth.json"), "");
    truncateSync(big, 50 * 1024 * 1024);
    const result = runBin(["agents", "--json"], t.env, t.home);
    expect(result.code).toBe(0);
    const agents = JSON.parse(result.stdout).agents as { id: string; auth: { error?: string } }[];
    expect(agents.find((a) => a.id === "hermes")!.auth.error).toBe(`cannot read ${big}: is larger than 1 MiB`);
    expect(agents.find((a) => a.id === "cursor")!.auth).toEqual({ connected: false, mode: "", authPath: join(t.home, ".cursor") });
  });
});
