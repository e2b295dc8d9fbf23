import { join } from "node:path";
import type { InstallScope } from "../runtimes/kit/install-types.js";
import type { InstalledArtifact } from "./artifacts.js";
import type { CliListing, ListedHook, ListedItem } from "./listing.js";

/**
 * Whether the runtime loaded an artifact: `loaded`; `not-loaded` (with the CLI's reason when it
 * gave one); `waiting` (loaded, but it runs only once you approve it: Codex's hook trust);
 * `unchecked` (the CLI cannot list this kind offline, or could not be asked).
 */
export type LoadState = "loaded" | "not-loaded" | "waiting" | "unchecked";

export interface LoadVerdict {
  state: LoadState;
  reason?: string;
}

/** Where the artifact is and who installed it, for matching against what the CLI listed. */
export interface ArtifactPlace {
  artifact: InstalledArtifact;
  scope: InstallScope;
  rootDir: string;
  /** An agent whose frontmatter names it otherwise than its file (gsd's `gsd-planner.compact.md` says `name: gsd-planner`). */
  listedAs?: string;
  /** For a hook of a pack other than bosun's: how many hooks of such packs bosun registered on its event for this runtime. */
  hooksOnEvent?: number;
}

/** bosun's own pack: its SessionStart hook prints a line starting `bosun`, which tells its run from the others. */
export const OWN_PACK = "bosun";

const notCheckable = (why: string): LoadVerdict => ({ state: "unchecked", reason: `not checkable offline: ${why}` });

/**
 * Matches one installed artifact against the CLI's listing. Where the CLI says which file it
 * loaded, the file must be bosun's: this one, or a copy bosun installed for another runtime in a
 * folder this CLI also reads (`bosunCopies`); another file of the same name shadows it. Where it
 * lists names only, the name must be there (an agent its frontmatter names after its base agent
 * cannot be told from that one, so it is not checkable).
 */
export function loadVerdict(place: ArtifactPlace, listing: CliListing, cli: string, bosunCopies: ReadonlySet<string> = new Set()): LoadVerdict {
  const { artifact, scope } = place;
  const path = join(place.rootDir, artifact.file);
  if (artifact.kind === "hook") return hookVerdict(place, listing.hooks, listing, cli);
  if (artifact.kind === "mcp") return mcpVerdict(place, listing, cli);
  const items = artifact.kind === "skill" ? listing.skills : artifact.kind === "command" ? (listing.commandsAsSkills ? listing.skills : listing.commands) : listing.agents;
  const refused = listing.errors.find((error) => (error.path !== undefined && samePath(error.path, path)) || (error.name === artifact.name && (error.kind === undefined || error.kind === artifact.kind)));
  if (items === undefined) return refused ? { state: "not-loaded", reason: refused.message } : notCheckable(`${cli} has no offline list of its ${artifact.kind}s`);
  const byPath = items.find((item) => item.path !== undefined && samePath(item.path, path));
  const found: ListedItem | undefined = byPath ?? items.find((item) => item.name === artifact.name && item.path === undefined);
  if (found && refused) return { state: "not-loaded", reason: refused.message };
  if (found) return found.enabled === false ? { state: "not-loaded", reason: `disabled in ${cli}'s settings` } : { state: "loaded" };
  if (refused) return { state: "not-loaded", reason: refused.message };
  // Known by its frontmatter name, which its base agent has too: the CLI lists that name once, for either file.
  if (place.listedAs && items.some((item) => item.name === place.listedAs && item.path === undefined)) {
    return notCheckable(`its frontmatter names it ${place.listedAs}, and ${cli} lists an agent of that name without saying which file it took`);
  }
  const other = items.find((item) => item.name === artifact.name);
  // A copy bosun put in a folder this CLI also reads (for another runtime) is the same artifact.
  if (other?.path && [...bosunCopies].some((copy) => samePath(copy, other.path!))) return { state: "loaded", reason: `from bosun's copy at ${other.path}` };
  if (other?.path) return { state: "not-loaded", reason: `shadowed by another ${artifact.kind} of the same name (${other.path})` };
  if (scope === "local" && listing.untrustedFolder) return { state: "not-loaded", reason: "untrusted folder" };
  return { state: "not-loaded", reason: `${cli} does not list it` };
}

/** An MCP server: listed by name (no CLI says which file it came from); one it could not start is not loaded, with what it said. */
function mcpVerdict(place: ArtifactPlace, listing: CliListing, cli: string): LoadVerdict {
  const { artifact, scope } = place;
  if (listing.mcpServers === undefined) return notCheckable(`${cli} has no offline list of its MCP servers`);
  const found = listing.mcpServers.find((item) => item.name === artifact.name);
  if (found?.enabled === false) return { state: "not-loaded", reason: scope === "local" && listing.untrustedFolder ? "untrusted folder" : `disabled in ${cli}'s settings` };
  if (found?.waiting) return { state: "waiting", reason: found.waiting };
  if (found?.failed) return { state: "not-loaded", reason: `${cli} could not start it (${found.failed})` };
  if (found) return { state: "loaded" };
  if (scope === "local" && listing.untrustedFolder) return { state: "not-loaded", reason: "untrusted folder" };
  return { state: "not-loaded", reason: `${cli} does not list it` };
}

function hookVerdict(place: ArtifactPlace, hooks: ListedHook[] | undefined, listing: CliListing, cli: string): LoadVerdict {
  const { artifact, scope } = place;
  if (hooks === undefined) return notCheckable(`${cli} has no offline list of its hooks`);
  const event = artifact.event;
  if (listing.hookEvents && event !== undefined && !listing.hookEvents.some((covered) => sameEventName(covered, event))) {
    return notCheckable(`${cli} lists no hooks, and runs only its ${listing.hookEvents.join(", ")} hooks before a model is asked`);
  }
  const sameEvent = hooks.filter((hook) => event === undefined || sameEventName(hook.event, event));
  const runs = sameEvent.filter((hook) => hook.ran);
  if (runs.length > 0) return artifact.pack === OWN_PACK ? ownHookRun(runs) : packHookRuns(runs, place.hooksOnEvent ?? 1, event ?? "", cli);
  const listed = sameEvent.find((hook) => hook.command !== undefined && artifact.command !== undefined && hook.command === artifact.command);
  if (listed) {
    if (listed.enabled === false) return { state: "not-loaded", reason: `disabled in ${cli}'s settings` };
    if (listed.trusted === false) return { state: "waiting", reason: `${cli} runs it once you trust it (start ${cli}: it asks to review new hooks)` };
    return { state: "loaded" };
  }
  if (scope === "local" && listing.untrustedFolder) return { state: "not-loaded", reason: "untrusted folder" };
  if (scope === "local" && listing.projectHooksNeedTrust) return { state: "not-loaded", reason: `untrusted folder (${cli} reads a project's hooks only once the project is trusted)` };
  return { state: "not-loaded", reason: sameEvent.length === 0 && runs.length === 0 && listing.hooks?.length === 0 ? `${cli} ran no ${artifact.event ?? ""} hook`.replace("  ", " ") : `${cli} does not list it` };
}

/** bosun's own hook: loaded when one run printed its bosun line. */
function ownHookRun(runs: ListedHook[]): LoadVerdict {
  if (runs.some((hook) => hook.ran!.ok && hook.ran!.printedBosunLine)) return { state: "loaded" };
  const failed = runs.find((hook) => !hook.ran!.ok);
  return { state: "not-loaded", reason: failed ? `ran and failed (exit ${failed.ran!.exitCode ?? "?"})` : "ran but printed no bosun line" };
}

/**
 * Another pack's hook: the CLI says how each hook on the event ran, not whose it was, so the
 * pack's hooks are loaded when at least as many ran through (other than bosun's own) as the
 * packs registered there; fewer is a hook that did not run, or failed.
 */
function packHookRuns(runs: ListedHook[], registered: number, event: string, cli: string): LoadVerdict {
  const ok = runs.filter((hook) => hook.ran!.ok && !hook.ran!.printedBosunLine).length;
  if (ok >= registered) return { state: "loaded" };
  const failed = runs.find((hook) => !hook.ran!.ok);
  if (failed) return { state: "not-loaded", reason: `a ${event} hook ran and failed (exit ${failed.ran!.exitCode ?? "?"}); ${cli} does not say which one` };
  return { state: "not-loaded", reason: `${cli} ran ${ok} of the ${registered} ${event} hooks bosun registered` };
}

function sameEventName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function samePath(a: string, b: string): boolean {
  return a === b || a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}
