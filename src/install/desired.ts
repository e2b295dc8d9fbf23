import { join } from "node:path";
import type { ExtraRootName, HookConfigFormat, HookPlacement, InstallRuntime, InstallScope, TomlBlock } from "../runtimes/install-types.js";
import { helperCommandFor } from "../runtimes/install-surfaces.js";
import { isSkip } from "../runtimes/install-types.js";
import type { EditionChoice } from "../runtimes/cli-version.js";
import { buildDesiredSettings, type DesiredSetting } from "./desired-settings.js";
import { sha256 } from "./file-hash.js";
import type { LoadedPack, PackFile } from "./pack/load-pack.js";
import { renderTemplate, type TemplateVars } from "./pack/template.js";
import { renderAgent, renderCommand, renderCopilotHook, renderSkillCategory, type RenderedFile } from "./render-artifacts.js";

export type RootKey = "main" | ExtraRootName;

/** Where a desired file's bytes come from: generated in memory, or copied from a pack file. */
export type DesiredSource = { kind: "bytes"; bytes: Buffer } | { kind: "file"; path: string; statKey: string; size: number };

/** A file the pack puts into a root. */
export interface DesiredFile {
  root: RootKey;
  rel: string;
  mode: number;
  source: DesiredSource;
  /** Known for generated files; for copies it is computed (or taken from the manifest) by the planner. */
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
  /** The edits the pack's `settings` make in this runtime's settings file (desired-settings.ts). */
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
  /** Skill folders (skills, and commands written as skills) this runtime already sees in another runtime's folder (name → why). */
  skipSkills?: ReadonlyMap<string, string>;
  /** The runtime CLI's contract edition (absent: the newest), and the plan's note about it. */
  edition?: EditionChoice;
}

/** A POSIX shell word for a path (single quotes; a quote inside becomes '\''). */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

function hookFileShown(placement: HookPlacement): string {
  return placement.register.kind === "config" ? (placement.register.files[0] as string) : placement.register.dir;
}

/**
 * The desired state of one pack in one runtime and scope: each artifact converted to the
 * runtime's format and placed where it loads it, and what was skipped and why. Pure: reads the
 * pack's template files only when they are templates (they were read when the pack was loaded).
 */
export function buildDesired(inputs: DesiredInputs): DesiredInstall {
  const { pack, runtime, scope, vars } = inputs;
  const layout = runtime.installSurface.layout(scope, inputs.edition?.edition);
  const files: DesiredFile[] = [];
  const hooks: DesiredHook[] = [];
  const skipped: SkippedArtifact[] = [];
  const generated = (root: RootKey, file: RenderedFile, artifact: string, mode = 0o644) => {
    const bytes = Buffer.from(file.text, "utf8");
    files.push({ root, rel: file.rel, mode, source: { kind: "bytes", bytes }, sha256: sha256(bytes), artifact });
  };
  const copied = (root: RootKey, rel: string, file: PackFile, artifact: string) => {
    if (file.template) return generated(root, { rel, text: renderTemplate(file.template, vars) }, artifact, file.mode);
    files.push({ root, rel, mode: file.mode, source: { kind: "file", path: file.path, statKey: file.statKey, size: file.size }, sha256: null, artifact });
  };
  const skipAll = (kind: string, names: string[], reason: string) => names.forEach((name) => skipped.push({ kind, name, reason }));

  if (isSkip(layout.skills)) skipAll("skill", pack.skills.map((skill) => skill.name), layout.skills.skip);
  else {
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
      for (const file of skill.files) copied(root, `${base}/${skill.name}/${file.rel}`, file, `skill ${skill.name}`);
    }
    if (placement.category && placed > 0) generated(root, renderSkillCategory(placement.dir, pack), `skill category ${pack.name}`);
  }

  if (isSkip(layout.commands)) skipAll("command", pack.commands.map((command) => command.name), layout.commands.skip);
  else {
    const placement = layout.commands;
    for (const command of pack.commands) {
      // A command written as a skill folder is skipped like a skill the runtime reads elsewhere.
      const why = placement.format === "skill" ? inputs.skipSkills?.get(command.name) : undefined;
      if (why) skipped.push({ kind: "command", name: command.name, reason: why });
      else generated(placement.root ?? "main", renderCommand(command, placement, vars), `command ${command.name}`);
    }
  }

  if (isSkip(layout.agents)) skipAll("agent", pack.agents.map((agent) => agent.name), layout.agents.skip);
  else {
    const placement = layout.agents;
    for (const agent of pack.agents) generated("main", renderAgent(agent, placement, vars), `agent ${agent.name}`);
  }

  let usesHelper = false;
  const portabilityNotes = new Set<string>();
  const timeoutNotes: string[] = [];
  /** Each placed hook's folder as its command names it (for `{hook-dir}` in settings). */
  const hookDirs = new Map<string, string>();
  let toml: DesiredInstall["toml"] = null;
  if (isSkip(layout.hooks)) skipAll("hook", pack.hooks.map((hook) => hook.name), layout.hooks.skip);
  else {
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
      for (const file of hook.files) copied("main", `${hookDir}/${file.rel}`, file, `hook ${hook.name}`);
      const mainDir = inputs.rootDirs.main ?? "";
      const hookDirText = projectVar ? `"$${projectVar}"/${shellQuote(`${runtime.installSurface.localRoot}/${hookDir}`)}` : join(mainDir, hookDir);
      hookDirs.set(hook.name, hookDirText);
      const command = hook.command.replaceAll("{bosun-hook}", helperCommandFor(helperCommand, placement.helperOutput)).replaceAll("{hook-dir}", hookDirText);
      if (hook.command.includes("{bosun-hook}")) {
        usesHelper = true;
        if (projectVar && !inputs.portableHelperCommand) portabilityNotes.add(`the hook command in ${hookFileShown(placement)} names bosun's hook helper by this machine's path (${inputs.helperCommand.replace(/^node /, "")}, outside your home folder); that file is usually committed, so on another machine the hook fails until bosun install --scope local runs there too`);
      }
      const cap = placement.timeoutCaps?.[hook.event];
      const timeout = cap !== undefined && hook.timeout > cap ? cap : hook.timeout;
      if (timeout !== hook.timeout) timeoutNotes.push(`hook ${hook.name}: ${runtime.title} allows a hook on ${event} at most ${cap} s, so its timeout there is ${cap} s, not ${hook.timeout} s`);
      const register = placement.register;
      if (register.kind === "file") {
        generated("main", renderCopilotHook(register.dir, { name: hook.name, event, command, timeout }), `hook ${hook.name}`);
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
    if (placement.toml && hooks.length > 0) toml = { ...placement.toml, root: "main" };
  }
  const fromSettings = buildDesiredSettings(pack, runtime, layout, isSkip(layout.hooks) ? {} : { hookDir: (name) => hookDirs.get(name) ?? null });
  skipped.push(...fromSettings.skipped);
  const notes = [...(inputs.edition?.note ? [inputs.edition.note] : []), ...(runtime.installSurface.notes?.(scope) ?? []), ...portabilityNotes, ...timeoutNotes];
  return { runtime, scope, files, hooks, settings: fromSettings.settings, toml, skipped, notes, usesHelper };
}
