// What the shared install-lifecycle suite (install-lifecycle.ts) stands on: the runtime × scope
// cases read from the install registry, a temp home for one case, the config files the runtime's
// declared contract has bosun edit (seeded in the user's style: BOM, comments, CRLF), and a view of
// the tree that two homes can be compared by.
import { chmodSync, mkdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { rootsFor, type InstallRoot } from "../../src/install/records/root.js";
import { listInstallRuntimes } from "../../src/runtimes/registry.js";
import { INSTALL_SCOPES, isSkip, type ContractEdition, type InstallScope, type RootKey } from "../../src/runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../src/runtimes/kit/types.js";
import { installOptions, packDir, treeState } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** The suite's pack: one of every artifact kind, a hook on `stop`, settings and a support file; v2 changes every file. */
export const PACK = "lifecycle";
export const V1 = packDir("lifecycle-v1");
export const V2 = packDir("lifecycle-v2");
export const PACK_HOOK_EVENT = (JSON.parse(readFileSync(join(V1, "hooks/life-hook.json"), "utf8")) as { event: string }).event;
const PACK_SETTING_KEYS = Object.keys((JSON.parse(readFileSync(join(V1, "pack.json"), "utf8")) as { settings: object }).settings) as ("permissions" | "env")[];

/** The scopes a runtime declares: every runtime has a global root; a project scope when it has a project root. */
export function supportedScopes(runtime: InstallRuntime): InstallScope[] {
  return INSTALL_SCOPES.filter((scope) => scope === "global" || runtime.installSurface.localRoot !== null);
}

/** Every runtime in the install registry × every scope it declares: a runtime added there is run through the suite. */
export function lifecycleCases(): { id: string; runtime: InstallRuntime; scope: InstallScope }[] {
  return listInstallRuntimes().flatMap((runtime) => supportedScopes(runtime).map((scope) => ({ id: runtime.id, runtime, scope })));
}

/** A config file the contract has bosun touch, relative to the runtime's root. `edits`: the pack's install changes it (else bosun only looks in it for a block it retired). */
export interface ConfigSurface {
  file: string;
  /** The root whose folder holds it: the runtime's own (`main`), or an extra one (`~/.claude.json` is in the home folder). */
  root: RootKey;
  syntax: "json" | "toml";
  edits: boolean;
  contracts: string[];
  /** The runtime reads the file as plain JSON and ignores it whole when it has comments: the plan warns with this. */
  plainJsonOnly?: string;
}

/**
 * The config files the runtime's layout (for this CLI edition) names: the hook registration file
 * when it takes the pack's hook event, the TOML block's and the retired block's file, and the
 * settings file when it places one of the pack's settings keys, and the file of its MCP servers.
 * `none`: why each is absent.
 */
export function configSurfaces(runtime: InstallRuntime, scope: InstallScope, edition?: ContractEdition): { surfaces: ConfigSurface[]; none: string[] } {
  const layout = runtime.installSurface.layout(scope, edition);
  const byFile = new Map<string, ConfigSurface>();
  const none: string[] = [];
  const add = (file: string, syntax: ConfigSurface["syntax"], edits: boolean, contract: string, plainJsonOnly?: string, root: RootKey = "main") => {
    const known = byFile.get(`${root}:${file}`) ?? { file, root, syntax, edits: false, contracts: [] };
    const plain = known.plainJsonOnly ?? plainJsonOnly;
    byFile.set(`${root}:${file}`, { ...known, edits: known.edits || edits, contracts: [...known.contracts, contract], ...(plain ? { plainJsonOnly: plain } : {}) });
  };
  const hooks = layout.hooks;
  if (isSkip(hooks)) none.push(`hooks: ${hooks.skip}`);
  else {
    const takesEvent = PACK_HOOK_EVENT in hooks.events;
    if (hooks.register.kind === "config") add(hooks.register.files[0]!, "json", takesEvent, hooks.register.contract, hooks.register.plainJsonOnly);
    else none.push(`hooks: one file per hook in ${hooks.register.dir}/ (${hooks.register.contract}), no config file`);
    if (hooks.toml) add(hooks.toml.file, "toml", takesEvent, hooks.toml.contract);
    if (hooks.retiredToml) add(hooks.retiredToml.file, "toml", false, hooks.retiredToml.contract);
  }
  const settings = layout.settings;
  if (settings === undefined) none.push("settings: no settings file");
  else if (isSkip(settings)) none.push(`settings: ${settings.skip}`);
  else add(settings.file, "json", PACK_SETTING_KEYS.some((key) => !isSkip(settings[key])), settings.contract, settings.plainJsonOnly);
  const mcp = layout.mcp;
  if (mcp === undefined) none.push("mcp: no MCP file");
  else if (isSkip(mcp)) none.push(`mcp: ${mcp.skip}`);
  else add(mcp.file, mcp.file.endsWith(".toml") ? "toml" : "json", true, mcp.contract, mcp.plainJsonOnly, mcp.root);
  return { surfaces: [...byFile.values()], none };
}

/** Where a config surface is in this world: in its root's folder (the runtime's own when the extra root is that folder here). */
export function surfacePath(w: World, surface: ConfigSurface): string {
  return join((w.roots.find((root) => root.key === surface.root) ?? w.main).dir, surface.file);
}

/** A config surface's name in a test's title: its file, with the root when that is not the runtime's own folder. */
export function surfaceLabel(surface: ConfigSurface): string {
  return surface.root === "main" ? surface.file : `${surface.root}:${surface.file}`;
}

/**
 * The user's own config, in their style: a JSONC with a BOM, comments, a trailing comma and
 * CRLF; a TOML with a BOM, comments and CRLF. `plain`: the JSON without comments or BOM (CRLF
 * kept), as a user of a runtime that ignores a commented file has it.
 */
export function userConfig(syntax: ConfigSurface["syntax"], plain = false): string {
  if (syntax === "toml") return '\ufeff# my own config\r\nmodel = "mine" # keep this\r\n\r\n[mine]\r\nkey = 1\r\n';
  if (plain) return '{\r\n  "mine": { "keep": true }\r\n}\r\n';
  return '\ufeff{\r\n  // my own settings\r\n  "mine": { "keep": true }, // keep this\r\n}\r\n';
}

export interface World {
  t: TempHome;
  runtime: InstallRuntime;
  scope: InstallScope;
  /** The working folder: the home for a global install, a project folder in it for a local one. */
  cwd: string;
  roots: InstallRoot[];
  main: InstallRoot;
  /** installPack/uninstallPack options for this runtime and scope. */
  options: NonNullable<Parameters<typeof installOptions>[1]>;
  /** The user's files planted by `seed`, by absolute path. */
  mine: Map<string, string>;
}

/**
 * A temp home for one case. A runtime whose config depends on its CLI's version gets a CLI that
 * says it is `edition` (default: the newest), so the edition does not depend on what is on this
 * machine's PATH. Run ids count up per world, so two worlds that run the same steps name their
 * journals and backups alike.
 */
export function makeWorld(runtime: InstallRuntime, scope: InstallScope, edition?: ContractEdition): World {
  const t = makeTempHome();
  const cwd = scope === "local" ? join(t.home, "project") : t.home;
  mkdirSync(cwd, { recursive: true });
  const cli = runtime.installSurface.cli;
  let agentsConfig: Record<string, { binary: string }> | undefined;
  if (cli) {
    const since = (edition ?? cli.editions.at(-1)!).since;
    const binary = t.write(`fake-cli/${cli.binary}`, `#!/bin/sh\necho "${cli.binary} ${since}"\n`);
    chmodSync(binary, 0o755);
    agentsConfig = { [runtime.id]: { binary } };
  }
  let runs = 0;
  const options = {
    runtimes: [runtime.id],
    scope,
    cwd,
    agentsConfig,
    now: () => new Date("2026-12-01T00:00:00.000Z"),
    random: () => String(++runs).padStart(8, "0"),
  };
  const roots = rootsFor(runtime, scope, { env: t.env, home: t.home, cwd });
  return { t, runtime, scope, cwd, roots, main: roots[0]!, options, mine: new Map() };
}

/**
 * Plants the user's files: each config file the contract names (in their style; `plain`: without
 * comments where the runtime reads it as plain JSON), a file of theirs in the runtime's folder
 * and one in the working folder.
 */
export function seed(w: World, options: { edition?: ContractEdition; plain?: boolean } = {}): ConfigSurface[] {
  const { surfaces } = configSurfaces(w.runtime, w.scope, options.edition);
  const put = (path: string, content: string) => w.mine.set(w.t.write(path, content), content);
  for (const surface of surfaces) put(surfacePath(w, surface), userConfig(surface.syntax, options.plain === true && surface.plainJsonOnly !== undefined));
  put(join(w.main.dir, "my-notes.md"), "my own notes\n");
  put(join(w.cwd, "my-work.txt"), "my own work\n");
  return surfaces;
}

/** The tree under the temp root, path by path: a file's mode and SHA-256, a folder's mode, a symlink's target. */
export function tree(w: World, options: { withoutData?: boolean } = {}): Record<string, string> {
  const data = relative(w.t.root, w.t.paths.data);
  // The hook helper stays in bosun's data folder after an uninstall, by design (README).
  return treeState(w.t.root, options.withoutData ? { skip: (rel) => rel === data || rel.startsWith(`${data}/`) } : {});
}

/**
 * A completed run, comparable across two homes: the temp root's path in a file taken as `~`,
 * a backup's run id as `<run>`; without journals (kept or not), the lock, the manifest and the
 * install state (times, stat keys), and folders that hold nothing else (one a failed removal or
 * the tidying after a commit left behind, by design).
 */
export function completed(w: World): Record<string, string> {
  const dropped = /(^|\/)(bosun-journal|bosun-install\.lock)(\/|$)|(^|\/)(bosun-manifest|bosun-install-state)\.json$/;
  const out = treeState(w.t.root, {
    skip: (rel) => dropped.test(rel),
    key: (rel) => rel.replace(/bosun-backups\/[^/]+/, "bosun-backups/<run>"),
    content: (path) => readFileSync(path, "utf8").replaceAll(w.t.root, "~"),
  });
  const empty = (path: string, state: string) => state.startsWith("dir") && !Object.entries(out).some(([other, what]) => other.startsWith(`${path}/`) && !what.startsWith("dir"));
  return Object.fromEntries(Object.entries(out).filter(([path, state]) => !empty(path, state)));
}
