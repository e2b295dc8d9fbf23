import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverExtensionFiles } from "../../src/extensions/discover.js";
import { extensionRoots } from "../../src/extensions/roots.js";
import { listInstalledPlugins } from "../../src/catalog/plugins/installed.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const POINT = "agent_init";

function layout(t: TempHome) {
  const dirs = {
    project: join(t.root, "proj/.bosun"),
    user: join(t.root, "config"),
    builtin: join(t.root, "builtin"),
    plugins: join(t.root, "plugins"),
  };
  const ext = (root: string, name: string, point = POINT) => t.write(join(root, "extensions", ...point.split("/"), name), "export default () => {};\n");
  const plugin = (name: string) => {
    t.write(join(dirs.plugins, name, "plugin.json"), JSON.stringify({ name, version: "1.0.0" }));
    return join(dirs.plugins, name);
  };
  const roots = (toggles: Record<string, boolean> = {}) =>
    extensionRoots({
      projectDotDir: dirs.project,
      userConfigDir: dirs.user,
      enabledPlugins: listInstalledPlugins(dirs.plugins, toggles).filter((p) => p.enabled),
      builtinDir: dirs.builtin,
    });
  return { dirs, ext, plugin, roots };
}

const describeFiles = (files: ReturnType<typeof discoverExtensionFiles>) => files.map((f) => `${f.name}@${f.root.name}`);

describe("extension discovery", () => {
  it("lists roots in priority order: project, user config, enabled plugins by name, built-ins", () => {
    const t = makeTempHome();
    const { plugin, roots } = layout(t);
    plugin("zeta");
    plugin("alpha");
    expect(roots().map((r) => `${r.kind}:${r.name}`)).toEqual(["project:project", "user:user", "plugin:alpha", "plugin:zeta", "builtin:builtin"]);
  });

  it("runs files in file-name order across all roots, whatever root they come from", () => {
    const t = makeTempHome();
    const { dirs, ext, plugin, roots } = layout(t);
    ext(dirs.builtin, "10_builtin.js");
    ext(dirs.builtin, "50_late.mjs");
    ext(plugin("tools"), "05_plugin_first.js");
    ext(dirs.user, "30_user.ts");
    ext(dirs.project, "20_project.js");
    expect(describeFiles(discoverExtensionFiles(POINT, roots()))).toEqual([
      "05_plugin_first@tools",
      "10_builtin@builtin",
      "20_project@project",
      "30_user@user",
      "50_late@builtin",
    ]);
  });

  it("lets a file in a higher-priority root override the same name below it, whatever its type", () => {
    const t = makeTempHome();
    const { dirs, ext, plugin, roots } = layout(t);
    ext(dirs.builtin, "10_x.js");
    ext(plugin("p"), "10_x.mjs");
    ext(dirs.user, "10_x.ts");
    ext(dirs.project, "20_y.js");
    ext(dirs.builtin, "20_y.js");
    const files = discoverExtensionFiles(POINT, roots());
    expect(describeFiles(files)).toEqual(["10_x@user", "20_y@project"]);
    expect(files[0]!.file).toBe(join(dirs.user, "extensions", POINT, "10_x.ts"));
  });

  it("ignores a disabled plugin's root entirely", () => {
    const t = makeTempHome();
    const { dirs, ext, plugin, roots } = layout(t);
    ext(plugin("off"), "10_from_disabled.js");
    ext(dirs.builtin, "10_from_disabled.js");
    ext(plugin("on"), "20_from_enabled.js");
    const files = discoverExtensionFiles(POINT, roots({ off: false }));
    expect(describeFiles(files)).toEqual(["10_from_disabled@builtin", "20_from_enabled@on"]);
    expect(roots({ off: false }).map((r) => r.name)).not.toContain("off");
  });

  it("skips a plugin with a broken plugin.json instead of loading it", () => {
    const t = makeTempHome();
    const { dirs, ext, roots } = layout(t);
    t.write(join(dirs.plugins, "broken/plugin.json"), "{ nope");
    ext(join(dirs.plugins, "broken"), "10_x.js");
    expect(discoverExtensionFiles(POINT, roots())).toEqual([]);
    const [broken] = listInstalledPlugins(dirs.plugins, {});
    expect(broken).toMatchObject({ name: "broken", enabled: false });
    expect(broken!.problem).toContain("not valid JSON");
  });

  it("ignores other file types, dot files and sub-folders, but follows a symlinked file", () => {
    const t = makeTempHome();
    const { dirs, ext, roots } = layout(t);
    ext(dirs.user, "10_real.js");
    ext(dirs.user, "README.md");
    ext(dirs.user, ".20_hidden.js");
    mkdirSync(join(dirs.user, "extensions", POINT, "30_folder.js"));
    const target = t.write("elsewhere/ext.mjs", "export default () => {};");
    symlinkSync(target, join(dirs.user, "extensions", POINT, "40_link.mjs"));
    expect(describeFiles(discoverExtensionFiles(POINT, roots()))).toEqual(["10_real@user", "40_link@user"]);
  });

  it("refuses two files with one name in the same root", () => {
    const t = makeTempHome();
    const { dirs, ext, roots } = layout(t);
    ext(dirs.user, "10_x.js");
    ext(dirs.user, "10_x.ts");
    expect(() => discoverExtensionFiles(POINT, roots())).toThrow(/has the same name as .*10_x/);
  });

  it("finds the nested folders of an extensible function's points", () => {
    const t = makeTempHome();
    const { dirs, ext, roots } = layout(t);
    ext(dirs.user, "10_after.js", "run_startup_migrations/end");
    expect(describeFiles(discoverExtensionFiles("run_startup_migrations/end", roots()))).toEqual(["10_after@user"]);
    expect(() => discoverExtensionFiles("../escape", roots())).toThrow(/invalid extension point name/);
  });
});
