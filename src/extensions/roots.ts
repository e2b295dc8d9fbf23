import { join } from "node:path";

/**
 * A folder that may hold an `extensions/` tree. Roots are listed highest priority first: a file
 * in an earlier root overrides a file with the same name in a later one.
 */
export interface ExtensionRoot {
  kind: "project" | "user" | "plugin" | "builtin";
  /** Display name: the plugin name for plugins, otherwise the kind. */
  name: string;
  dir: string;
}

export interface ExtensionRootInputs {
  /** The project's `.bosun/` folder, when bosun runs inside a project. */
  projectDotDir: string | null;
  /** bosun's config folder. */
  userConfigDir: string;
  /** Enabled plugins, in any order; they are ranked by name. */
  enabledPlugins: { name: string; dir: string }[];
  /** The built-in extensions shipped with bosun. */
  builtinDir: string;
}

/** The four roots in priority order: project, user config, enabled plugins by name, built-ins. */
export function extensionRoots(inputs: ExtensionRootInputs): ExtensionRoot[] {
  const roots: ExtensionRoot[] = [];
  if (inputs.projectDotDir) roots.push({ kind: "project", name: "project", dir: inputs.projectDotDir });
  roots.push({ kind: "user", name: "user", dir: inputs.userConfigDir });
  const plugins = [...inputs.enabledPlugins].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const plugin of plugins) roots.push({ kind: "plugin", name: plugin.name, dir: plugin.dir });
  roots.push({ kind: "builtin", name: "builtin", dir: inputs.builtinDir });
  return roots;
}

/** The folder that holds a point's files inside a root. */
export function pointDir(root: ExtensionRoot, point: string): string {
  return join(root.dir, "extensions", ...point.split("/"));
}
