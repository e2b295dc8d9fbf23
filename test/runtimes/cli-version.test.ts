import { describe, expect, it } from "vitest";
import { chooseEdition, compareVersions, editionSpan, parseVersion } from "../../src/runtimes/kit/cli-version.js";
import { CODEX_EDITIONS } from "../../src/runtimes/codex.js";
import type { CliContract } from "../../src/runtimes/kit/install-types.js";

const codex: CliContract = { binary: "codex", editions: CODEX_EDITIONS };
const read = (version: string) => ({ kind: "read" as const, path: "/bin/codex", version, from: "--version" as const });

describe("CLI versions", () => {
  it("parses the first semver of an answer, and nothing from garbage", () => {
    expect(parseVersion("codex-cli 0.171.0\n")).toBe("0.171.0");
    expect(parseVersion("2.1.197 (Claude Code)")).toBe("2.1.197");
    expect(parseVersion("v1.2.3-beta.4 build 7")).toBe("1.2.3-beta.4");
    expect(parseVersion("version 12.3, build 1.2.3.4")).toBeNull();
    expect(parseVersion("")).toBeNull();
  });

  it("orders versions as semver does", () => {
    expect(compareVersions("0.124.0", "0.123.9")).toBe(1);
    expect(compareVersions("0.99.0", "0.100.0")).toBe(-1);
    expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBe(-1);
    expect(compareVersions("1.0.0-rc.10", "1.0.0-rc.9")).toBe(1);
    expect(compareVersions("1.0.0", "1.0.0")).toBe(0);
    expect(compareVersions("x", "1.0.0")).toBeNull();
  });

  it("picks the edition whose span holds the version, and says so when it had to guess", () => {
    expect(editionSpan(codex, CODEX_EDITIONS[0]!)).toBe("0.114.0 – 0.123.x");
    expect(chooseEdition("Codex", codex, read("0.123.4"))).toEqual({ edition: CODEX_EDITIONS[0], note: null });
    expect(chooseEdition("Codex", codex, read("0.124.0"))).toEqual({ edition: CODEX_EDITIONS[1], note: null });
    expect(chooseEdition("Codex", codex, read("0.124.0-alpha.1")).edition).toBe(CODEX_EDITIONS[0]);
    expect(chooseEdition("Codex", codex, read("0.171.0"))).toEqual({ edition: CODEX_EDITIONS[1], note: null });
    expect(chooseEdition("Codex", codex, { kind: "absent" })).toEqual({ edition: CODEX_EDITIONS[1], note: null });
    expect(chooseEdition("Codex", codex, read("0.90.0"))).toEqual({
      edition: CODEX_EDITIONS[0],
      note: "Codex 0.90.0 is older than 0.114.0, the oldest version bosun's contract covers: bosun wrote its oldest contract (for 0.114.0 – 0.123.x); upgrade Codex if the runtime does not load what bosun installed",
    });
    expect(chooseEdition("Codex", codex, read("0.172.0")).note).toMatch(/^Codex 0\.172\.0 is newer than the versions bosun's contract was checked against \(0\.171\.0\)/);
  });
});
