import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { isInside } from "./fs/path-inside.js";

/** Where bosun keeps its files. Every path is absolute. */
export interface BosunPaths {
  home: string;
  config: string;
  data: string;
  cache: string;
  state: string;
  /** The single folder older bosun versions used; startup migrations empty it. */
  legacy: string;
  /** Set when BOSUN_HOME put all four folders under one directory. */
  bosunHome: string | null;
}

export type Env = Record<string, string | undefined>;

/**
 * Resolves bosun's folders from the environment: XDG base directories (with the spec's defaults,
 * ignoring relative values as the spec requires), or all four under `BOSUN_HOME` when it is set.
 */
export function resolvePaths(env: Env, cwd: string = process.cwd()): BosunPaths {
  const home = nonEmpty(env.HOME) ?? homedir();
  const legacy = join(home, ".bosun");
  const bosunHome = nonEmpty(env.BOSUN_HOME);
  if (bosunHome) {
    const root = resolve(cwd, expandHome(bosunHome, home));
    return {
      home,
      config: join(root, "config"),
      data: join(root, "data"),
      cache: join(root, "cache"),
      state: join(root, "state"),
      legacy,
      bosunHome: root,
    };
  }
  const xdg = (name: string, fallback: string) => {
    const value = nonEmpty(env[name]);
    return join(value && isAbsolute(value) ? value : join(home, fallback), "bosun");
  };
  return {
    home,
    config: xdg("XDG_CONFIG_HOME", ".config"),
    data: xdg("XDG_DATA_HOME", join(".local", "share")),
    cache: xdg("XDG_CACHE_HOME", ".cache"),
    state: xdg("XDG_STATE_HOME", join(".local", "state")),
    legacy,
    bosunHome: null,
  };
}

/** The variable that moves each of the four folders (BOSUN_HOME moves all of them). */
export const FOLDER_VARIABLES = {
  config: "XDG_CONFIG_HOME",
  data: "XDG_DATA_HOME",
  cache: "XDG_CACHE_HOME",
  state: "XDG_STATE_HOME",
} as const;

export type FolderName = keyof typeof FOLDER_VARIABLES;

/**
 * The variables that would put bosun's folders somewhere other than `path` (a folder of bosun's,
 * a path inside one, or a parent of one): empty when `path` has nothing to do with them.
 */
export function variablesMoving(path: string, paths: BosunPaths): string[] {
  const related = (root: string) => isInside(path, root) || isInside(root, path);
  if (paths.bosunHome) return related(paths.bosunHome) ? ["BOSUN_HOME"] : [];
  const names = (Object.keys(FOLDER_VARIABLES) as FolderName[]).filter((name) => related(paths[name]));
  return names.length > 0 ? [...names.map((name) => FOLDER_VARIABLES[name]), "BOSUN_HOME"] : [];
}

/** `~` and `~/x` relative to `home`; anything else unchanged. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

/** Text for display with every path under the home directory shown from `~`. */
export function displayPathsIn(text: string, home: string): string {
  return home ? text.replaceAll(home + "/", "~/") : text;
}

/** A path for display: the home directory shown as `~`. */
export function displayPath(path: string, home: string): string {
  if (path === home) return "~";
  if (home && path.startsWith(home + "/")) return "~" + path.slice(home.length);
  return path;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== "" ? value : undefined;
}
