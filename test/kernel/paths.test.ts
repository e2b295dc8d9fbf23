import { describe, expect, it } from "vitest";
import { displayPath, expandHome, resolvePaths } from "../../src/kernel/paths.js";

describe("resolvePaths", () => {
  it("uses the XDG defaults under HOME when no XDG variable is set", () => {
    const paths = resolvePaths({ HOME: "/h" }, "/cwd");
    expect(paths).toEqual({
      home: "/h",
      config: "/h/.config/bosun",
      data: "/h/.local/share/bosun",
      cache: "/h/.cache/bosun",
      state: "/h/.local/state/bosun",
      legacy: "/h/.bosun",
      bosunHome: null,
    });
  });

  it("follows absolute XDG variables and ignores relative or empty ones, as the spec says", () => {
    const paths = resolvePaths(
      { HOME: "/h", XDG_CONFIG_HOME: "/x/conf", XDG_DATA_HOME: "relative/data", XDG_CACHE_HOME: "", XDG_STATE_HOME: "/x/state" },
      "/cwd",
    );
    expect(paths.config).toBe("/x/conf/bosun");
    expect(paths.data).toBe("/h/.local/share/bosun");
    expect(paths.cache).toBe("/h/.cache/bosun");
    expect(paths.state).toBe("/x/state/bosun");
  });

  it("puts all four folders under BOSUN_HOME, resolving it against the cwd and expanding ~", () => {
    expect(resolvePaths({ HOME: "/h", BOSUN_HOME: "/portable", XDG_CONFIG_HOME: "/x" }, "/cwd")).toMatchObject({
      config: "/portable/config",
      data: "/portable/data",
      cache: "/portable/cache",
      state: "/portable/state",
      bosunHome: "/portable",
    });
    expect(resolvePaths({ HOME: "/h", BOSUN_HOME: "rel" }, "/cwd").config).toBe("/cwd/rel/config");
    expect(resolvePaths({ HOME: "/h", BOSUN_HOME: "~/b" }, "/cwd").data).toBe("/h/b/data");
  });

  it("treats a blank BOSUN_HOME as unset", () => {
    expect(resolvePaths({ HOME: "/h", BOSUN_HOME: "  " }, "/cwd").bosunHome).toBeNull();
  });
});

describe("path helpers", () => {
  it("expands ~ only at the start", () => {
    expect(expandHome("~", "/h")).toBe("/h");
    expect(expandHome("~/a", "/h")).toBe("/h/a");
    expect(expandHome("/a/~", "/h")).toBe("/a/~");
  });

  it("shows the home folder as ~ but not a folder that merely starts with its name", () => {
    expect(displayPath("/h/x", "/h")).toBe("~/x");
    expect(displayPath("/h", "/h")).toBe("~");
    expect(displayPath("/home2/x", "/home")).toBe("/home2/x");
  });
});
