import { join } from "node:path";
import type { ExtraRootName, HookConfigFormat, HookPlacement, InstallScope, TomlBlock } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { helperCommandFor } from "../../runtimes/kit/install-surfaces.js";
import { isSkip } from "../../runtimes/kit/install-types.js";
import type { EditionChoice } from "../../runtimes/kit/cli-version.js";
import { buildDesiredSettings, type DesiredSetting } from "./desired-settings.js";
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

export type RootKey = "main" | ExtraRootName;

/** Where a desired file's bytes come from: generated in memory, or copied from a pack file. */
export type DesiredSource = { kind: "bytes"; bytes: Buffer } | { kind: "file"; path: string; statKey: string; size: number } | RenderedSource;

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

/**
 * The desired state of one pack in one runtime and scope: each artifact converted to the
 * runtime's format and placed where it loads it, and what was skipped and why. Reads a pack file
 * again only when its text changes on the way (a template, path variables, frontmatter keys the
 * runtime does not take); names a runtime cannot take and a support folder that would clash are
 * a `PackError` (nothing is written).
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
  const mainDir = inputs.rootDirs.main ?? "";
  const support = pack.files.length > 0 ? supportFolder(runtime, scope, pack) : null;
  const pathValues: TextPathValues = { "{pack-dir}": support === null ? "" : textPath(join(mainDir, support), scope, inputs.paths), "{config-dir}": textPath(mainDir, scope, inputs.paths) };
  const withPaths = (text: string, uses: boolean) => (uses ? resolvePathVars(text, pathValues) : text);
  // Only a template, a file that uses a path variable or one that loses frontmatter keys is read
  // and rewritten; the others stay stat-keyed copies.
  const copied = (root: RootKey, rel: string, file: PackFile, artifact: string, dropKeys: readonly string[] = []) => {
    if (!file.template && !file.pathVars && dropKeys.length === 0) {
      files.push({ root, rel, mode: file.mode, source: { kind: "file", path: file.path, statKey: file.statKey, size: file.size }, sha256: null, artifact });
      return;
    }
    files.push({ root, rel, mode: file.mode, source: renderedSource(file, vars, pathValues, dropKeys), sha256: null, artifact });
  };
  const skipAll = (kind: string, names: string[], reason: string) => names.forEach((name) => skipped.push({ kind, name, reason }));
  const drops = new Map<string, string[]>();
  const dropped = (kind: FrontmatterKind, name: string, keys: readonly string[]) => {
    const out = droppedKeys(kind, keys, runtime.id);
    for (const key of out.filter((candidate) => isKnownKey(kind, candidate))) drops.set(`${kind} frontmatter key \`${key}\``, [...(drops.get(`${kind} frontmatter key \`${key}\``) ?? []), name]);
    return out;
  };
  // bosun's canonical runtime gets the file as written (minus keys it does not take), unless it is a template.
  const asWritten = (artifact: MarkdownArtifact, kind: FrontmatterKind, rel: string, out: string[]) =>
    runtime.id === CANONICAL_RUNTIME && !artifact.bodyTemplate && (kind !== "agent" || artifact.frontmatter.name !== undefined) ? { rel, text: withoutKeys(artifact.source, out) } : null;
  const markdown = (artifact: MarkdownArtifact, file: RenderedFile) => ({ rel: file.rel, text: withPaths(file.text, artifact.pathVars !== null) });

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
      checkArtifactName(runtime, "skill", skill.name, join(pack.dir, "skills", skill.name, "SKILL.md"));
      const out = dropped("skill", skill.name, skill.keys);
      for (const file of skill.files) copied(root, `${base}/${skill.name}/${file.rel}`, file, `skill ${skill.name}`, file.rel === "SKILL.md" ? out : []);
    }
    if (placement.category && placed > 0) generated(root, renderSkillCategory(placement.dir, pack), `skill category ${pack.name}`);
  }

  if (isSkip(layout.commands)) skipAll("command", pack.commands.map((command) => command.name), layout.commands.skip);
  else {
    const placement = layout.commands;
    for (const command of pack.commands) {
      // A command written as a skill folder is skipped like a skill the runtime reads elsewhere.
      const why = placement.format === "skill" ? inputs.skipSkills?.get(command.name) : undefined;
      if (why) {
        skipped.push({ kind: "command", name: command.name, reason: why });
        continue;
      }
      checkArtifactName(runtime, "command", command.name, command.file);
      const out = dropped("command", command.name, command.keys);
      const rendered = renderCommand(command, placement, vars, passingExtras("command", command.extras, runtime.id));
      const file = (placement.format === "markdown" && asWritten(command, "command", rendered.rel, out)) || rendered;
      generated(placement.root ?? "main", markdown(command, file), `command ${command.name}`);
    }
  }

  if (isSkip(layout.agents)) skipAll("agent", pack.agents.map((agent) => agent.name), layout.agents.skip);
  else {
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
      const out = dropped("agent", agent.name, agent.keys);
      const rendered = renderAgent(agent, placement, vars, passingExtras("agent", agent.extras, runtime.id));
      const file = (placement.format === "markdown" && asWritten(agent, "agent", rendered.rel, out)) || rendered;
      generated("main", markdown(agent, file), `agent ${agent.name}`);
    }
  }

  if (support !== null) {
    for (const file of pack.files) copied("main", `${support}/${file.rel}`, file, `files ${pack.name}`);
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
  // A status line command names folders as hook commands do (settings files take this machine's paths).
  const commandValues = { "{config-dir}": commandPath("", undefined, "", mainDir), ...(support === null ? {} : { "{pack-dir}": commandPath(support, undefined, "", mainDir) }) };
  const fromSettings = buildDesiredSettings(pack, runtime, layout, { values: commandValues, ...(isSkip(layout.hooks) ? {} : { hookDir: (name: string) => hookDirs.get(name) ?? null }) });
  skipped.push(...fromSettings.skipped);
  const dropNotes = [...drops].map(([what, names]) => `${runtime.title} does not take the ${what}: left out of ${names.length > 3 ? `${names.slice(0, 3).join(", ")} and ${names.length - 3} more` : names.join(", ")}`);
  const notes = [...(inputs.edition?.note ? [inputs.edition.note] : []), ...(runtime.installSurface.notes?.(scope) ?? []), ...portabilityNotes, ...timeoutNotes, ...dropNotes];
  return { runtime, scope, files, hooks, settings: fromSettings.settings, toml, skipped, notes, usesHelper };
}
