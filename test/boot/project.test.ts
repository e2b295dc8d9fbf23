import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findProject } from "../../src/boot/project.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("findProject", () => {
  it("finds the nearest folder with bosun.json from a subfolder", () => {
    const t = makeTempHome();
    t.write("home/work/app/bosun.json", "{}");
    const deep = join(t.home, "work/app/src/lib");
    mkdirSync(deep, { recursive: true });
    expect(findProject(deep, t.home)).toEqual({ root: join(t.home, "work/app"), dotDir: join(t.home, "work/app/.bosun") });
  });

  it("accepts a .bosun folder as the marker", () => {
    const t = makeTempHome();
    mkdirSync(join(t.home, "proj/.bosun/extensions"), { recursive: true });
    expect(findProject(join(t.home, "proj"), t.home)?.root).toBe(join(t.home, "proj"));
  });

  it("stops at a repository root", () => {
    const t = makeTempHome();
    t.write("home/outer/bosun.json", "{}");
    mkdirSync(join(t.home, "outer/repo/.git"), { recursive: true });
    mkdirSync(join(t.home, "outer/repo/src"), { recursive: true });
    expect(findProject(join(t.home, "outer/repo/src"), t.home)).toBeNull();
  });

  it("never takes the home folder (whose .bosun is the legacy data folder) for a project", () => {
    const t = makeTempHome();
    mkdirSync(join(t.home, ".bosun"), { recursive: true });
    mkdirSync(join(t.home, "notes"), { recursive: true });
    expect(findProject(join(t.home, "notes"), t.home)).toBeNull();
  });
});
