import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectAgentReports, reportRuntime } from "../../src/runtimes/collect-status.js";
import { CredentialReadError } from "../../src/runtimes/kit/detect/file-reader.js";
import type { StatusRuntime } from "../../src/runtimes/kit/types.js";
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

const DISPLAY_SAFE = /^(cannot read \/\S+: (is not a regular file|is larger than 1 MiB|is not UTF-8 text|permission denied \(EACCES\))|Gemini CLI will not start: its user settings \/\S+ are not valid JSON)$/;
// Codex refuses to run with a login file it cannot read, so bosun names the file and what Codex would make of it.
const CODEX_DISPLAY_SAFE = /^(cannot read \/\S+: (is not a regular file|is larger than 1 MiB|is not UTF-8 text)|\/\S+ (is not a regular file \(Codex cannot read its (login|configuration)\)|is not a login Codex can read: it is not valid JSON)|\/\S+\/config\.toml:\d+:\d+: [a-z ]+ \(Codex refuses a config\.toml that does not parse\))$/;

describe("odd credential files", () => {
  for (const [name, make] of Object.entries(ODDITIES)) {
    it(`${name} in every store: not signed in or a display-safe error, no crash, no hang`, async () => {
      const t = makeDetection({ env: { GOOGLE_APPLICATION_CREDENTIALS: "~/service-account.json" } });
      // Two agents may read one file (~/.env: Gemini, and the npm grok in its working folder).
      for (const path of new Set(CREDENTIAL_STORES.map((store) => storePath(store, t.home, t.ctx.dataDir)))) {
        mkdirSync(dirname(path), { recursive: true });
        make(path);
      }
      const started = Date.now();
      const reports = await collectAgentReports(t.ctx, undefined);
      expect(Date.now() - started).toBeLessThan(2000);
      for (const report of reports) {
        // Cursor and Grok fall back to a text scan, so invalid JSON naming a secret key counts, as in those CLIs.
        // OpenCode's catalogue lists GOOGLE_APPLICATION_CREDENTIALS (Vertex), so it counts once its file check gets through.
        const opencodeReadsOn = !["a 50 MB file", "bytes that are not UTF-8"].includes(name);
        const expected = (name === "invalid JSON/TOML" && ["cursor", "grok"].includes(report.id)) || (report.id === "opencode" && opencodeReadsOn);
        expect(report.auth.connected, report.id).toBe(expected);
        if (report.auth.error) expect(report.auth.error, report.id).toMatch(report.id === "codex" ? CODEX_DISPLAY_SAFE : DISPLAY_SAFE);
      }
      // Adapters that stop at an unreadable file say why (Codex at anything but a missing file, as
      // Codex itself); Claude treats it as absent; Gemini treats credential files so, but stops at a
      // settings file it cannot use, as Gemini CLI itself does.
      const withError = reports.filter((report) => report.auth.error).map((report) => report.id);
      const unreadable = ["a 50 MB file", "bytes that are not UTF-8"].includes(name) ? ["cursor", "grok", "hermes", "opencode"] : [];
      const stopsAtAnyOddFile = name === "a broken symlink" ? [] : ["codex", "gemini"];
      expect(withError.sort()).toEqual([...unreadable, ...stopsAtAnyOddFile].sort());
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
    const throwing: StatusRuntime = {
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
        credentialLocations: () => ({ files: [], folders: [], env: [] }),
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
