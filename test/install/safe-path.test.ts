// Action paths: the quick acceptance of plain paths agrees with the full rules, and joining a
// checked path to its root gives what path.resolve gives.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { joinInside, normalizeRelPath } from "../../src/install/plan/safe-path.js";
import { pick, seededRandom } from "../fixtures/random.js";

/** The rules, written out plainly: the answer normalizeRelPath must give (null: refused). */
function expected(input: string): string | null {
  if (/[\u0000-\u001f\u007f]/.test(input) || input.trim() === "" || input.length > 1024) return null;
  const path = input.replaceAll("\\", "/");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return null;
  for (const segment of path.split("/")) if (segment === "" || segment === "." || segment === ".." || Buffer.byteLength(segment) > 255) return null;
  return path;
}

function generated(random: () => number): string {
  const pieces = ["a", "Z", "0", "_", "-", ".", "..", " ", "/", "/", "\\", ":", "é", "@", "~", "\t", "C:", "x".repeat(250), "%2e"];
  let out = "";
  const length = 1 + pick(random, 10);
  for (let i = 0; i < length; i++) out += pieces[pick(random, pieces.length)];
  return out;
}

describe("action paths", () => {
  it("are accepted, normalized or refused exactly by the rules (generated paths)", () => {
    const random = seededRandom(42);
    for (let i = 0; i < 20_000; i++) {
      const input = generated(random);
      const want = expected(input);
      let got: string | null;
      try {
        got = normalizeRelPath(input, "test");
      } catch {
        got = null;
      }
      expect(got, JSON.stringify(input)).toBe(want);
      if (got !== null) expect(joinInside("/home/u/.claude", got)).toBe(resolve("/home/u/.claude", got));
    }
  });

  it("are refused at the limits: a 256-byte name, 1,025 characters", () => {
    expect(normalizeRelPath(`a/${"x".repeat(255)}`, "test")).toBe(`a/${"x".repeat(255)}`);
    expect(() => normalizeRelPath(`a/${"x".repeat(256)}`, "test")).toThrow(/longer than 255 bytes/);
    expect(() => normalizeRelPath(`${"abcdefgh/".repeat(113)}abcdefgh`, "test")).toThrow(/longer than 1024 characters/);
    expect(joinInside("/", "a/b")).toBe("/a/b");
    // A root is always resolved; one that is not is refused as before, never quietly joined.
    expect(() => joinInside("/home/u/../u/.claude", "a")).toThrow(/resolves outside the root/);
  });
});
