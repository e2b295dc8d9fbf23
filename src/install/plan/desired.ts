import { join } from "node:path";
import type { RootKey, HookConfigFormat, HookPlacement, InstallLayout, InstallScope, TomlBlock } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { helperCommandFor } from "../../runtimes/kit/install-surfaces.js";
import { isSkip } from "../../runtimes/kit/install-types.js";
import type { EditionChoice } from "../../runtimes/kit/cli-version.js";
import { buildDesiredSettings, type DesiredSetting } from "./desired-settings.js";
import { buildDesiredMcp, type BosunCommand } from "./desired-mcp.js";

export type { BosunCommand } from "./desired-mcp.js";
import { sha256 } from "../apply/file-hash.js";
import { checkArtifactName, variantSkip } from "../name-rules.js";
import { CANONICAL_RUNTIME, droppedKeys, isKnownKey, passingExtras, withoutKeys, type FrontmatterKind } from "../pack/frontmatter-keys.js";
import type { LoadedPack, MarkdownArtifact, PackFile } from "../pack/load-pack.js";
import { resolvePathVars, textPath, type TextPathValues } from "./path-vars.js";
import { renderedSource, type RenderedSource } from "./rendered-copy.js";
import { shellQuote } from "../shell-quote.js";
import { supportFolder } from "./support-files.js";
import type { TemplateVars } from "../pack/template.js";
import { renderAgent, renderCommand, renderCopilotHook, renderSkillCategory, type RenderedFile } from "./render-artifacts.js";

export { shellQuote } from "../shell-quote.js";

export type { RootKey } from "../../runtimes/kit/install-types.js";

/** Where a desired file's bytes come from: generated in memory, or copied from a pack file. */
export type DesiredSource = { kind: "bytes"; bytes: Buffer } | CopiedSource | RenderedSource;

/** A pack file installed as it is: its bytes as the load read them (then `sha256` is known), or read from the pack when written. */
export interface CopiedSource {
  kind: "file";
  path: string;
  statKey: string;
  size: number;
  bytes: Buffer | null;
}

/** A file the pack puts into a root. */
export interface DesiredFile {
  root: RootKey;
  rel: string;
  mode: number;
  source: DesiredSource;
  /** Known for generated files and copies the load read; for other copies it is computed (or taken from the manifest) by the planner. */
  sha256: string | null;
  /** For reports: `skill bosun-orchestrator`, `command bosun-status`… */
  artifact: string;
}

/** A hook registration in a runtime's JSON config. */
export interface DesiredHook {
  root: RootKey;
  /** Candidate config files (the first that exists, else the first). */
  files: readonly string[];
  format: HookConfigFormat;
  pack: string;
  hook: string;
  /** The runtime's own event name. */
  event: string;
  command: string;
  /** In the runtime's unit. */
  timeout: number;
  matcher?: string;
  contract: string;
}

export interface SkippedArtifact {
  kind: string;
  name: string;
  reason: string;
}

/** What one pack should look like in one runtime and scope. */
export interface DesiredInstall {
  runtime: InstallRuntime;
  scope: InstallScope;
  files: DesiredFile[];
  hooks: DesiredHook[];
  /** The edits the pack's `settings` make in this runtime's settings file (desired-settings.ts), and its MCP servers' entries (desired-mcp.ts). */
  settings: DesiredSetting[];
  /** The marked TOML block that goes with hooks in this runtime (Codex), if any. */
  toml: (TomlBlock & { root: RootKey }) | null;
  skipped: SkippedArtifact[];
  notes: string[];
  /** A hook uses `{bosun-hook}`: bosun's helper must be in its data folder. */
  usesHelper: boolean;
}

export interface DesiredInputs {
  pack: LoadedPack;
  runtime: InstallRuntime;
  scope: InstallScope;
  /** Absolute folder of each root of this runtime and scope (for `{hook-dir}`). */
  rootDirs: Partial<Record<RootKey, string>>;
  /** The template values for this runtime and scope. */
  vars: TemplateVars;
  /** What `{bosun-hook}` becomes: the command that runs bosun's hook helper. */
  helperCommand: string;
  /** The same with the path written from `"$HOME"` (null: the helper is not under the home folder). */
  portableHelperCommand?: string | null;
  /** What `{bosun}` becomes as an MCP server's command: the program that starts this bosun and its first arguments. */
  bosunCommand: BosunCommand;
  /** Skill folders (skills, and commands written as skills) this runtime already sees in another runtime's folder (name → why). */
  skipSkills?: ReadonlyMap<string, string>;
  /** The runtime CLI's contract edition (absent: the newest), and the plan's note about it. */
  edition?: EditionChoice;
  /** The home and working folders: how `{pack-dir}` and `{config-dir}` are written in text (path-vars.ts). */
  paths: { home: string; cwd: string };
}

/**
 * A folder in a hook command: absolute (shell-quoted when it must be), or in a project's config
 * of a runtime that sets its project folder's variable, `"$VAR"/<path from the project>`.
 */
function commandPath(rel: string, projectVar: string | undefined, localRoot: string, mainDir: string): string {
  if (!projectVar) return shellQuote(rel === "" ? mainDir : join(mainDir, rel));
  const fromProject = [localRoot, rel].filter(Boolean).join("/");
  return fromProject === "" ? `"$${projectVar}"` : `"$${projectVar}"/${shellQuote(fromProject)}`;
}

function hookFileShown(placement: HookPlacement): string {
  return placement.register.kind === "config" ? (placement.register.files[0] as string) : placement.register.dir;
}

/** One build of a pack's desired state: what each artifact's step adds to, and how it places a file. */
interface Build {
  inputs: DesiredInputs;
  layout: InstallLayout;
  /** The runtime's main root folder ("" when unknown). */
  mainDir: string;
  /** The pack's support folder in the main root, when it has files. */
  support: string | null;
  files: DesiredFile[];
  hooks: DesiredHook[];
  skipped: SkippedArtifact[];
  /** Each frontmatter key the runtime does not take, with the artifacts it was left out of (one note per key). */
  drops: Map<string, string[]>;
  /** A file generated in memory. */
  generated(root: RootKey, file: RenderedFile, artifact: string, mode?: number): void;
  /** A pack file copied: as is (stat-keyed) unless its text changes on the way. */
  copied(root: RootKey, rel: string, file: PackFile, artifact: string, dropKeys?: readonly string[]): void;
  /** The artifact's frontmatter keys this runtime does not take (the known ones noted in `drops`). */
  dropped(kind: FrontmatterKind, name: string, keys: readonly string[]): string[];
  /** The markdown file as written in the pack, for bosun's canonical runtime; null for the others. */
  asWritten(artifact: MarkdownArtifact, kind: FrontmatterKind, rel: string, out: string[]): RenderedFile | null;
  /** A rendered markdown file with its path variables resolved. */
  markdown(artifact: MarkdownArtifact, file: RenderedFile): RenderedFile;
}

/**
 * The desired state of one pack in one runtime and scope: each artifact converted to the
 * runtime's format and placed where it loads it, and what was skipped and why. Reads a pack file
 * again only when its text changes on the way (a template, path variables, frontmatter keys the
 * runtime does not take); names a runtime cannot take and a support folder that would clash are
 * a `PackError` (nothing is written).
 */
export function buildDesired(inputs: DesiredInputs): DesiredInstall {
  const { pack, runtime, scope } = inputs;
  const build = openBuild(inputs);
  const { layout, mainDir, support, files, hooks, skipped } = build;
  placeSkills(build);
  placeCommands(build);
  placeAgents(build);
  if (support !== null) {
    for (const file of pack.files) build.copied("main", `${support}/${file.rel}`, file, `files ${pack.name}`);
  }
  const placed = placeHooks(build);
  // A status line command names folders as hook commands do (settings files take this machine's paths).
  const commandValues = { "{config-dir}": commandPath("", undefined, "", mainDir), ...(support === null ? {} : { "{pack-dir}": commandPath(support, undefined, "", mainDir) }) };
  const hookDirs = placed.hookDirs;
  const fromSettings = buildDesiredSettings(pack, runtime, layout, { values: commandValues, ...(hookDirs === null ? {} : { hookDir: (name: string) => hookDirs.get(name) ?? null }) });
  skipped.push(...fromSettings.skipped);
  const fromMcp = buildDesiredMcp(pack, runtime, layout, { values: commandValues, bosun: inputs.bosunCommand }, new Set(Object.keys(inputs.rootDirs) as RootKey[]));
  skipped.push(...fromMcp.skipped);
  const dropNotes = [...build.drops].map(([what, names]) => `${runtime.title} does not take the ${what}: left out of ${names.length > 3 ? `${names.slice(0, 3).join(", ")} and ${names.length - 3} more` : names.join(", ")}`);
  const notes = [...(inputs.edition?.note ? [inputs.edition.note] : []), ...(runtime.installSurface.notes?.(scope) ?? []), ...placed.notes, ...dropNotes];
  return { runtime, scope, files, hooks, settings: [...fromSettings.settings, ...fromMcp.settings], toml: placed.toml, skipped, notes, usesHelper: placed.usesHelper };
}

/** The runtime's layout, the pack's folders in it, and the ways a file is placed, set up once. */
function openBuild(inputs: DesiredInputs): Build {
  const { pack, runtime, scope, vars } = inputs;
  const layout = runtime.installSurface.layout(scope, inputs.edition?.edition);
  const files: DesiredFile[] = [];
  const mainDir = inputs.rootDirs.main ?? "";
  const support = pack.files.length > 0 ? supportFolder(runtime, scope, pack) : null;
  const pathValues: TextPathValues = { "{pack-dir}": support === null ? "" : textPath(join(mainDir, support), scope, inputs.paths), "{config-dir}": textPath(mainDir, scope, inputs.paths) };
  const withPaths = (text: string, uses: boolean) => (uses ? resolvePathVars(text, pathValues) : text);
  const drops = new Map<string, string[]>();
  return {
    inputs,
    layout,
    mainDir,
    support,
    files,
    hooks: [],
    skipped: [],
    drops,
    generated: (root, file, artifact, mode = 0o644) => {
      const bytes = Buffer.from(file.text, "utf8");
      files.push({ root, rel: file.rel, mode, source: { kind: "bytes", bytes }, sha256: sha256(bytes), artifact });
    },
    // Only a template, a file that uses a path variable or one that loses frontmatter keys is read
    // and rewritten; the others stay stat-keyed copies.
    copied: (root, rel, file, artifact, dropKeys = []) => {
      if (!file.template && !file.pathVars && dropKeys.length === 0) {
        files.push({ root, rel, mode: file.mode, source: { kind: "file", path: file.path, statKey: file.statKey, size: file.size, bytes: file.loaded?.bytes ?? null }, sha256: file.loaded?.sha256 ?? null, artifact });
        return;
      }
      files.push({ root, rel, mode: file.mode, source: renderedSource(file, vars, pathValues, dropKeys), sha256: null, artifact });
    },
    dropped: (kind, name, keys) => {
      const out = droppedKeys(kind, keys, runtime.id);
      for (const key of out.filter((candidate) => isKnownKey(kind, candidate))) drops.set(`${kind} frontmatter key \`${key}\``, [...(drops.get(`${kind} frontmatter key \`${key}\``) ?? []), name]);
      return out;
    },
    // bosun's canonical runtime gets the file as written (minus keys it does not take), unless it is a template.
    asWritten: (artifact, kind, rel, out) =>
      runtime.id === CANONICAL_RUNTIME && !artifact.bodyTemplate && (kind !== "agent" || artifact.frontmatter.name !== undefined) ? { rel, text: withoutKeys(artifact.source, out) } : null,
    markdown: (artifact, file) => ({ rel: file.rel, text: withPaths(file.text, artifact.pathVars !== null) }),
  };
}

function skipAll(build: Build, kind: string, names: string[], reason: string): void {
  names.forEach((name) => build.skipped.push({ kind, name, reason }));
}

/** The pack's skill folders, copied (and, where the runtime groups skills, a category file for the pack). */
function placeSkills(build: Build): void {
  const { inputs, layout, skipped } = build;
  const { pack, runtime } = inputs;
  if (isSkip(layout.skills)) return skipAll(build, "skill", pack.skills.map((skill) => skill.name), layout.skills.skip);
  const placement = layout.skills;
  const root = placement.root ?? "main";
  const base = placement.category ? `${placement.dir}/${pack.name}` : placement.dir;
  let placed = 0;
  for (const skill of pack.skills) {
    const why = inputs.skipSkills?.get(skill.name);
    if (why) {
      skipped.push({ kind: "skill", name: skill.name, reason: why });
      continue;
    }
    placed++;
    checkArtifactName(runtime, "skill", skill.name, join(pack.dir, "skills", skill.name, "SKILL.md"));
    const out = build.dropped("skill", skill.name, skill.keys);
    for (const file of skill.files) build.copied(root, `${base}/${skill.name}/${file.rel}`, file, `skill ${skill.name}`, file.rel === "SKILL.md" ? out : []);
  }
  if (placement.category && placed > 0) build.generated(root, renderSkillCategory(placement.dir, pack), `skill category ${pack.name}`);
}

/** The pack's commands, each rendered in the runtime's command format. */
function placeCommands(build: Build): void {
  const { inputs, layout, skipped } = build;
  const { pack, runtime, vars } = inputs;
  if (isSkip(layout.commands)) return skipAll(build, "command", pack.commands.map((command) => command.name), layout.commands.skip);
  const placement = layout.commands;
  for (const command of pack.commands) {
    // A command written as a skill folder is skipped like a skill the runtime reads elsewhere.
    const why = placement.format === "skill" ? inputs.skipSkills?.get(command.name) : undefined;
    if (why) {
      skipped.push({ kind: "command", name: command.name, reason: why });
      continue;
    }
    checkArtifactName(runtime, "command", command.name, command.file);
    const out = build.dropped("command", command.name, command.keys);
    const rendered = renderCommand(command, placement, vars, passingExtras("command", command.extras, runtime.id));
    const file = (placement.format === "markdown" && build.asWritten(command, "command", rendered.rel, out)) || rendered;
    build.generated(placement.root ?? "main", build.markdown(command, file), `command ${command.name}`);
  }
}

/** The pack's agents, each rendered in the runtime's agent format (a variant meant for another runtime skipped). */
function placeAgents(build: Build): void {
  const { inputs, layout, skipped } = build;
  const { pack, runtime, vars } = inputs;
  if (isSkip(layout.agents)) return skipAll(build, "agent", pack.agents.map((agent) => agent.name), layout.agents.skip);
  const placement = layout.agents;
  const agentNames = pack.agents.map((agent) => agent.name);
  for (const agent of pack.agents) {
    const named = "name" in agent.frontmatter && typeof agent.frontmatter.name === "string" ? agent.frontmatter.name : undefined;
    const variant = variantSkip(runtime, agent.name, named, agentNames);
    if (variant) {
      skipped.push({ kind: "agent", name: agent.name, reason: variant });
      continue;
    }
    checkArtifactName(runtime, "agent", agent.name, agent.file);
    const out = build.dropped("agent", agent.name, agent.keys);
    const rendered = renderAgent(agent, placement, vars, passingExtras("agent", agent.extras, runtime.id));
    const file = (placement.format === "markdown" && build.asWritten(agent, "agent", rendered.rel, out)) || rendered;
    build.generated("main", build.markdown(agent, file), `agent ${agent.name}`);
  }
}

/** What placing the hooks leaves for the rest of the build. */
interface PlacedHooks {
  /** A hook uses `{bosun-hook}`. */
  usesHelper: boolean;
  /** The portability notes, then the lowered timeouts. */
  notes: string[];
  /** Each placed hook's folder as its command names it (for `{hook-dir}` in settings); null when the runtime takes no hooks. */
  hookDirs: Map<string, string> | null;
  toml: DesiredInstall["toml"];
}

/**
 * The pack's hooks: each hook's files copied, its command's placeholders filled, its timeout
 * lowered to the runtime's cap, and the registration written as a file or kept for the config plan.
 */
function placeHooks(build: Build): PlacedHooks {
  const { inputs, layout, mainDir, support, hooks, skipped } = build;
  const { pack, runtime } = inputs;
  if (isSkip(layout.hooks)) {
    skipAll(build, "hook", pack.hooks.map((hook) => hook.name), layout.hooks.skip);
    return { usesHelper: false, notes: [], hookDirs: null, toml: null };
  }
  let usesHelper = false;
  const portabilityNotes = new Set<string>();
  const timeoutNotes: string[] = [];
  const hookDirs = new Map<string, string>();
  const placement = layout.hooks;
  const projectVar = placement.projectDirVar;
  const helperCommand = projectVar && inputs.portableHelperCommand ? inputs.portableHelperCommand : inputs.helperCommand;
  for (const hook of pack.hooks) {
    const event = placement.events[hook.event];
    if (!event) {
      skipped.push({ kind: "hook", name: hook.name, reason: `${runtime.title} has no ${hook.event} hook event` });
      continue;
    }
    const hookDir = `${placement.filesDir}/${hook.name}`;
    for (const file of hook.files) build.copied("main", `${hookDir}/${file.rel}`, file, `hook ${hook.name}`);
    const hookDirText = projectVar ? `"$${projectVar}"/${shellQuote(`${runtime.installSurface.localRoot}/${hookDir}`)}` : join(mainDir, hookDir);
    hookDirs.set(hook.name, hookDirText);
    const command = hook.command
      .replaceAll("{bosun-hook}", helperCommandFor(helperCommand, placement.helperOutput))
      .replaceAll("{hook-dir}", hookDirText)
      .replaceAll("{pack-dir}", support === null ? "" : commandPath(support, projectVar, runtime.installSurface.localRoot ?? "", mainDir))
      .replaceAll("{config-dir}", commandPath("", projectVar, runtime.installSurface.localRoot ?? "", mainDir));
    if (hook.command.includes("{bosun-hook}")) {
      usesHelper = true;
      if (projectVar && !inputs.portableHelperCommand) portabilityNotes.add(`the hook command in ${hookFileShown(placement)} names bosun's hook helper by this machine's path (${inputs.helperCommand.replace(/^node /, "")}, outside your home folder); that file is usually committed, so on another machine the hook fails until bosun install --scope local runs there too`);
    }
    const cap = placement.timeoutCaps?.[hook.event];
    const timeout = cap !== undefined && hook.timeout > cap ? cap : hook.timeout;
    if (timeout !== hook.timeout) timeoutNotes.push(`hook ${hook.name}: ${runtime.title} allows a hook on ${event} at most ${cap} s, so its timeout there is ${cap} s, not ${hook.timeout} s`);
    const register = placement.register;
    if (register.kind === "file") {
      build.generated("main", renderCopilotHook(register.dir, { name: hook.name, event, command, timeout }), `hook ${hook.name}`);
    } else {
      hooks.push({
        root: "main",
        files: register.files,
        format: register.format,
        pack: pack.name,
        hook: hook.name,
        event,
        command,
        timeout: register.timeoutUnit === "ms" ? timeout * 1000 : timeout,
        ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
        contract: register.contract,
      });
    }
  }
  const toml = placement.toml && hooks.length > 0 ? { ...placement.toml, root: "main" as const } : null;
  return { usesHelper, notes: [...portabilityNotes, ...timeoutNotes], hookDirs, toml };
}
