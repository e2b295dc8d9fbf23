import { describe, expect, it } from "vitest";
import { isInside } from "../../../src/kernel/fs/path-inside.js";

describe("isInside", () => {
  it("compares whole names, not prefixes", () => {
    expect(isInside("/work/app", "/work/app")).toBe(true);
    expect(isInside("/work/app/", "/work/app")).toBe(true);
    expect(isInside("/work/app2", "/work/app")).toBe(false);
    expect(isInside("/work/..app/x", "/work")).toBe(true);
    expect(isInside("/work", "/work/app")).toBe(false);
    expect(isInside("/anything", "/")).toBe(true);
  });
});
