import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DotenvLoader } from "../../src/kernel/dotenv.js";
import type { Env } from "../../src/kernel/paths.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("DotenvLoader", () => {
  it("loads variables without overriding the real environment", () => {
    const t = makeTempHome();
    const file = t.write("data/.env", "A=1\nB='two'\n# c\nREAL=from-file\n");
    const env: Env = { REAL: "from-shell" };
    const result = new DotenvLoader(env).load(file);
    expect(env).toEqual({ REAL: "from-shell", A: "1", B: "two" });
    expect(result).toMatchObject({ found: true, applied: ["A", "B"], shadowed: ["REAL"], removed: [] });
  });

  it("on reload updates what it set, drops what the new file lacks, and still leaves the real env alone", () => {
    const t = makeTempHome();
    const first = t.write("old/.env", "A=1\nB=2\n");
    const env: Env = { REAL: "x" };
    const loader = new DotenvLoader(env);
    loader.load(first);
    rmSync(first);
    const moved = t.write("new/.env", "A=10\nREAL=y\n");
    const result = loader.load(moved);
    expect(env).toEqual({ REAL: "x", A: "10" });
    expect(result.removed).toEqual(["B"]);
  });

  it("reports a missing file as not found and a folder as a problem, without failing", () => {
    const t = makeTempHome();
    const env: Env = {};
    expect(new DotenvLoader(env).load(join(t.root, "none/.env"))).toMatchObject({ found: false });
    const dir = join(t.root, "dir.env");
    mkdirSync(dir);
    expect(new DotenvLoader(env).load(dir)).toMatchObject({ found: false, problem: "not a regular file" });
  });
});
