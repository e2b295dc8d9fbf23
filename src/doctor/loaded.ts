import { join } from "node:path";
import type { InstallScope } from "../runtimes/install-types.js";
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
}

/**
 * Matches one installed artifact against the CLI's listing. Where the CLI says which file it
 * loaded, the file must be bosun's: this one, or a copy bosun installed for another runtime in a
 * folder this CLI also reads (`bosunCopies`); another file of the same name shadows it. Where it
 * lists names only, the name must be there.
 */
export function loadVerdict(place: ArtifactPlace, listing: CliListing, cli: string, bosunCopies: ReadonlySet<string> = new Set()): LoadVerdict {
  const { artifact, scope } = place;
  const path = join(place.rootDir, artifact.file);
  if (artifact.kind === "hook") return hookVerdict(place, listing.hooks, listing, cli);
  const items = artifact.kind === "skill" ? listing.skills : artifact.kind === "command" ? (listing.commandsAsSkills ? listing.skills : listing.commands) : listing.agents;
  const refused = listing.errors.find((error) => (error.path !== undefined && samePath(error.path, path)) || (error.name === artifact.name && (error.kind === undefined || error.kind === artifact.kind)));
  if (items === undefined) return refused ? { state: "not-loaded", reason: refused.message } : { state: "unchecked", reason: `${cli} cannot list its ${artifact.kind}s offline` };
  const byPath = items.find((item) => item.path !== undefined && samePath(item.path, path));
  const found: ListedItem | undefined = byPath ?? items.find((item) => item.name === artifact.name && item.path === undefined);
  if (found && refused) return { state: "not-loaded", reason: refused.message };
  if (found) return found.enabled === false ? { state: "not-loaded", reason: `disabled in ${cli}'s settings` } : { state: "loaded" };
  if (refused) return { state: "not-loaded", reason: refused.message };
  const other = items.find((item) => item.name === artifact.name);
  // A copy bosun put in a folder this CLI also reads (for another runtime) is the same artifact.
  if (other?.path && [...bosunCopies].some((copy) => samePath(copy, other.path!))) return { state: "loaded", reason: `from bosun's copy at ${other.path}` };
  if (other?.path) return { state: "not-loaded", reason: `shadowed by another ${artifact.kind} of the same name (${other.path})` };
  if (scope === "local" && listing.untrustedFolder) return { state: "not-loaded", reason: "untrusted folder" };
  return { state: "not-loaded", reason: `${cli} does not list it` };
}

function hookVerdict(place: ArtifactPlace, hooks: ListedHook[] | undefined, listing: CliListing, cli: string): LoadVerdict {
  const { artifact, scope } = place;
  if (hooks === undefined) return { state: "unchecked", reason: `${cli} cannot list its hooks offline` };
  const sameEvent = hooks.filter((hook) => artifact.event === undefined || hook.event.toLowerCase() === artifact.event.toLowerCase());
  const runs = sameEvent.filter((hook) => hook.ran);
  if (runs.length > 0) {
    if (runs.some((hook) => hook.ran!.ok && hook.ran!.printedBosunLine)) return { state: "loaded" };
    const failed = runs.find((hook) => !hook.ran!.ok);
    return { state: "not-loaded", reason: failed ? `ran and failed (exit ${failed.ran!.exitCode ?? "?"})` : "ran but printed no bosun line" };
  }
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

function samePath(a: string, b: string): boolean {
  return a === b || a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}
