import { chmodSync, existsSync, rmdirSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Env } from "../../kernel/paths.js";
import { getInstallRuntime } from "../../runtimes/registry.js";
import { isSkip, type InstallScope } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { PACK_NAME, SEMVER } from "../pack/pack-names.js";
import type { PackSettings } from "../pack/settings-schema.js";
import { rootsFor, STATE_NAMES, type InstallRoot } from "../records/root.js";
import { importAgents, importCommands, importSkills } from "./import-artifacts.js";
import { ImportError } from "./import-errors.js";
import { importHooks } from "./import-hooks.js";
import type { ImportedHook, Skipped } from "./import-report.js";
import { importSettings } from "./import-settings.js";
import { carriedFolders, readBosunOwned, readConfig, relFrom, RUNTIME_STATE, type BosunOwned } from "./import-sources.js";
import { rewriteCommand, rewriteText, type FolderNames } from "./import-text.js";
import { walkFolder, type OutFile } from "./import-walk.js";

export interface ImportOptions {
  runtime: string;
  scope: InstallScope;
  /** The pack folder to write (default `./<name>`); must be missing or empty. */
  out?: string;
  name?: string;
  version?: string;
  /** Folders of the runtime's folder (relative to it) carried in the pack's `files/`. */
  files: readonly string[];
  env: Env;
  home: string;
  cwd: string;
}

/** What an import made and left out (the CLI prints it; `--json` is this). */
export interface ImportReport {
  pack: { name: string; version: string; dir: string };
  runtime: { id: string; title: string };
  scope: InstallScope;
  /** The runtime folder read. */
  from: string;
  imported: { skills: string[]; commands: string[]; agents: string[]; hooks: { name: string; event: string; from: string }[]; settings: string[]; files: number };
  /** Variables whose values looked like secrets: `{env:NAME}` in the pack, the values not copied. */
  secrets: string[];
  skipped: Skipped[];
}

/** An import read and checked, not yet written. */
export interface ImportPlan {
  report: ImportReport;
  packJson: Record<string, unknown>;
  files: OutFile[];
}

/** Reads the runtime's folder and builds the pack in memory; bad input is one `ImportError`, with nothing written. */
export function planImport(options: ImportOptions): ImportPlan {
  const runtime = runtimeFor(options.runtime);
  const name = options.name ?? (options.out ? basename(resolve(options.cwd, options.out)) : `${runtime.id}-setup`);
  if (!PACK_NAME.test(name)) throw new ImportError(`${options.name ? "--name" : "the pack's name (from --out)"} ${JSON.stringify(name)}: use lower-case letters, digits, '.', '_' or '-' (give --name)`);
  const version = options.version ?? "0.1.0";
  if (!SEMVER.test(version)) throw new ImportError(`--version ${JSON.stringify(version)}: use a semantic version such as 1.0.0`);
  const out = resolve(options.cwd, options.out ?? name);
  checkOutFolder(out);
  let roots: InstallRoot[];
  try {
    roots = rootsFor(runtime, options.scope, { env: options.env, home: options.home, cwd: options.cwd });
  } catch (error) {
    throw new ImportError((error as Error).message);
  }
  const main = roots[0]!.dir;
  if (!existsSync(main) || !lstatSync(main).isDirectory()) throw new ImportError(`there is no ${runtime.title} folder at ${main} (${options.scope} scope); nothing to import`);
  const layout = runtime.installSurface.layout(options.scope);
  const rootDir = (root: string | undefined) => roots.find((candidate) => candidate.key === (root ?? "main"))?.dir ?? main;
  const artifactDirs = new Set([layout.skills, layout.commands, layout.agents].flatMap((placement) => (isSkip(placement) || ("root" in placement && placement.root) ? [] : [placement.dir.split("/")[0]!])));
  const carried = carriedFolders(main, options.files, name, artifactDirs);
  const names: FolderNames = { configDir: main, home: options.home, carried };
  const owned = readBosunOwned(roots, options.home);
  const skipped: Skipped[] = [];
  const common = { rewrite: (text: string) => rewriteText(text, names), owned: owned.files, skipped };

  const skills: string[] = [];
  const files: OutFile[] = [];
  const skillDirs = new Set<string>();
  const addSkills = (dir: string) => {
    if (skillDirs.has(dir)) return;
    skillDirs.add(dir);
    const found = importSkills({ dir, rel: relFrom(main, dir, options.home) }, common);
    const fresh = found.names.filter((skill) => !skills.includes(skill));
    for (const skill of found.names) if (!fresh.includes(skill)) skipped.push({ what: `${relFrom(main, dir, options.home)}/${skill}`, why: "a skill of that name is imported already" });
    skills.push(...fresh);
    files.push(...found.files.filter((file) => fresh.includes(file.rel.split("/")[1]!)));
  };
  if (!isSkip(layout.skills)) addSkills(join(rootDir(layout.skills.root), layout.skills.dir));
  const commands: string[] = [];
  if (!isSkip(layout.commands)) {
    const dir = join(rootDir(layout.commands.root), layout.commands.dir);
    if (layout.commands.format === "skill") addSkills(dir);
    else {
      const found = importCommands({ dir, rel: relFrom(main, dir, options.home) }, layout.commands.format, common);
      for (const command of found.names) {
        if (skills.includes(command)) skipped.push({ what: `${layout.commands.dir}/${command}`, why: "a skill has the same name (a pack's command may not)" });
        else {
          commands.push(command);
          files.push(found.files.find((file) => file.rel === `commands/${command}.md`)!);
        }
      }
    }
  }
  const agents: string[] = [];
  if (!isSkip(layout.agents)) {
    const found = importAgents({ dir: join(main, layout.agents.dir), rel: layout.agents.dir }, layout.agents.format, common);
    agents.push(...found.names);
    files.push(...found.files);
  }
  const { hooks, settings, secrets, configFiles } = importConfig(runtime, options.scope, main, owned, names, skipped);
  for (const folder of carried) files.push(...walkFolder(join(main, folder.dir), folder.to ? `files/${folder.to}` : "files", { ...common, rel: folder.dir }));
  for (const hook of hooks) files.push({ rel: `hooks/${hook.name}.json`, bytes: Buffer.from(`${JSON.stringify(hook.json, null, 2)}\n`), executable: false });
  listLeftOut(main, new Set([...artifactDirs, ...configFiles, ...carried.map((folder) => folder.dir.split("/")[0]!)]), skipped);

  const artifacts = Object.fromEntries(Object.entries({ skills, commands, agents, hooks: hooks.map((hook) => hook.name) }).filter(([, list]) => list.length > 0));
  const packJson: Record<string, unknown> = { name, version, description: `Imported from ${runtime.title} (${options.scope}) by bosun pack import`, artifacts, ...(Object.keys(settings).length > 0 ? { settings } : {}) };
  const report: ImportReport = {
    pack: { name, version, dir: out },
    runtime: { id: runtime.id, title: runtime.title },
    scope: options.scope,
    from: main,
    imported: { skills, commands, agents, hooks: hooks.map((hook) => ({ name: hook.name, event: hook.json.event, from: hook.from })), settings: settingNames(settings), files: files.filter((file) => file.rel.startsWith("files/")).length },
    secrets,
    skipped,
  };
  return { report, packJson, files };
}

/**
 * The runtimes import reads: Claude Code, Codex, Gemini CLI and OpenCode (checked with their real
 * CLIs), and the ones laid out exactly like one of them. The others keep artifacts in forms
 * that do not map back one to one (plain workflows without frontmatter, `*.agent.md`, a hooks
 * file per hook, skill categories, `$@` prompts…).
 */
export const IMPORT_RUNTIMES: readonly string[] = ["claude", "codex", "gemini", "opencode", "qwen", "kilo", "augment", "codebuddy"];

function runtimeFor(id: string): InstallRuntime {
  let runtime: InstallRuntime;
  try {
    runtime = getInstallRuntime(id);
  } catch (error) {
    throw new ImportError(`--runtime: ${(error as Error).message}`);
  }
  if (!IMPORT_RUNTIMES.includes(runtime.id)) throw new ImportError(`--runtime ${runtime.id}: bosun pack import reads ${IMPORT_RUNTIMES.join(", ")}; ${runtime.title}'s files do not map back to a pack one to one yet`);
  return runtime;
}

function checkOutFolder(out: string): void {
  if (!existsSync(out)) return;
  if (!lstatSync(out).isDirectory()) throw new ImportError(`--out ${out}: a file is there; name a new folder`);
  if (readdirSync(out).length > 0) throw new ImportError(`--out ${out}: the folder is not empty; name a new or empty folder`);
}

/** Hooks and settings from the runtime's config files (the ones its layout edits). */
function importConfig(runtime: InstallRuntime, scope: InstallScope, main: string, owned: BosunOwned, names: FolderNames, skipped: Skipped[]) {
  const layout = runtime.installSurface.layout(scope);
  const rewrite = (command: string) => rewriteCommand(command, names);
  const hooks: ImportedHook[] = [];
  let settings: PackSettings = {};
  const secrets: string[] = [];
  const configFiles = new Set<string>();
  if (!isSkip(layout.hooks) && layout.hooks.register.kind === "config" && layout.hooks.register.format === "nested") {
    const register = layout.hooks.register;
    const file = register.files.find((candidate) => existsSync(join(main, candidate))) ?? register.files[0]!;
    configFiles.add(file);
    const config = readConfig(join(main, file));
    if (config?.problem) skipped.push({ what: file, why: config.problem });
    else if (config) {
      const found = importHooks({ file, config: config.value, events: layout.hooks.events, timeoutUnit: register.timeoutUnit, bosunCommands: owned.hookCommands, rewrite });
      hooks.push(...found.hooks);
      skipped.push(...found.skipped);
    }
  }
  if (layout.settings && !isSkip(layout.settings)) {
    const file = layout.settings.file;
    configFiles.add(file);
    const config = readConfig(join(main, file));
    if (config && !config.problem) {
      const found = importSettings({ file, config: config.value, placement: layout.settings, bosunSettings: owned.settings, rewrite });
      settings = found.settings;
      secrets.push(...found.secrets);
      skipped.push(...found.skipped);
    }
  }
  return { hooks, settings, secrets, configFiles };
}

/** Every other entry of the runtime's folder, with why it was not imported. */
function listLeftOut(main: string, used: ReadonlySet<string>, skipped: Skipped[]): void {
  for (const entry of readdirSync(main).sort()) {
    if (used.has(entry)) continue;
    const why = STATE_NAMES.includes(entry) ? "bosun's own record of its installs" : RUNTIME_STATE.has(entry) ? "the runtime's own state (sign-in, sessions, history, caches)" : "not one of the runtime's skills, commands, agents or settings; name a folder with --files to carry it in the pack";
    skipped.push({ what: entry, why });
  }
}

function settingNames(settings: PackSettings): string[] {
  return [
    ...(settings.statusLine ? ["statusLine"] : []),
    ...Object.entries(settings.permissions ?? {}).flatMap(([list, rules]) => rules.map((rule) => `permissions.${list}: ${rule}`)),
    ...Object.keys(settings.env ?? {}).map((name) => `env.${name}`),
  ];
}

/** Writes the pack folder: into a staging folder beside it, then moved into place. */
export function writeImport(plan: ImportPlan): void {
  const out = plan.report.pack.dir;
  const staging = join(dirname(out), `.${basename(out)}.import-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, "pack.json"), `${JSON.stringify(plan.packJson, null, 2)}\n`);
    for (const file of plan.files) {
      const path = join(staging, file.rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.bytes);
      if (file.executable) chmodSync(path, 0o755);
    }
    if (existsSync(out)) rmdirSync(out);
    renameSync(staging, out);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

