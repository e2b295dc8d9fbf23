import * as nodeFs from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Env } from "../kernel/paths.js";
import { readFileStart } from "../kernel/fs/regular-file.js";
import { collectInstallStatus, type RootStatus } from "../install/records/install-status.js";
import { readManifest } from "../install/records/manifest.js";
import { parseFrontmatter } from "../install/pack/frontmatter.js";
import { skippingReads } from "../install/plan/shared-folders.js";
import { MANIFEST_FILE, rootsFor, statePath } from "../install/records/root.js";
import { reportRuntime, runtimeConfig, type AgentsConfig } from "../runtimes/collect-status.js";
import { locateBinary } from "../runtimes/kit/detect/binary.js";
import { listInstallRuntimes } from "../runtimes/registry.js";
import type { InstallScope } from "../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../runtimes/kit/types.js";
import { machineDetectionContext } from "../runtimes/kit/machine.js";
import { findById, listRuntimes } from "../runtimes/registry.js";
import type { AuthStatus } from "../runtimes/kit/types.js";
import { installedArtifacts, kindWord, sharedSkills, type ArtifactKind } from "./artifacts.js";
import { hasProbe, probeCli, type ProbeAnswer } from "./cli-probes.js";
import { readHookSnapshot, type HookSnapshot } from "./hook-snapshot.js";
import { intactCheck, type IntactCheck } from "./intact.js";
import { doctorLock, type DoctorLock } from "./lock-section.js";
import { loadVerdict, OWN_PACK, type ArtifactPlace, type LoadState } from "./loaded.js";

export const DEFAULT_PROBE_TIMEOUT_MS = 20_000;

/** How much of an agent file is read for its frontmatter name. */
const FRONTMATTER_BYTES = 64 * 1024;

export interface DoctorOptions {
  /** Install runtimes to check (default: every runtime bosun installed a pack into). */
  runtimes?: readonly InstallRuntime[];
  /** Only these scopes (the closing check of an install looks at the one it installed). */
  scopes?: readonly InstallScope[];
  /** The environment the agents see: the user's, without what bosun's own `.env` added. */
  env: Env;
  home: string;
  cwd: string;
  dataDir: string;
  agentsConfig: AgentsConfig;
  timeoutMs: number;
  /** bosun's package (its own pack): given, the project's `bosun.lock` is checked too (lock-section.ts). */
  packageRoot?: string;
  /** bosun's cache folder (its pack digest cache is read, never written). */
  cacheDir?: string;
}

export interface RootDoctor {
  scope: InstallScope;
  key: string;
  dir: string;
  packs: { name: string; version: string }[];
  intact: IntactCheck;
}

export interface ArtifactDoctor {
  kind: ArtifactKind;
  name: string;
  pack: string;
  scope: InstallScope;
  path: string;
  state: LoadState;
  reason?: string;
}

export interface RuntimeDoctor {
  runtime: string;
  title: string;
  /** The CLI bosun asked (its path), null when it is not installed or bosun has no probe for it. */
  cli: { binary: string; path: string | null; installed: boolean } | null;
  signIn: AuthStatus | null;
  roots: RootDoctor[];
  artifacts: ArtifactDoctor[];
  probe: { asked: string; ms: number; failure?: string } | null;
}

/** One thing to fix: `text` is its line in the report, naming what to do. */
export interface DoctorProblem {
  runtime: string;
  /** `intact`: a file or entry changed; `probe`: the CLI could not be asked; `loaded`: it did not load an artifact; `none`: nothing installed. */
  kind: "intact" | "probe" | "loaded" | "none" | "lock";
  artifact?: { kind: ArtifactKind; name: string; scope: InstallScope };
  text: string;
}

export interface DoctorReport {
  ok: boolean;
  timeoutMs: number;
  runtimes: RuntimeDoctor[];
  hook: HookSnapshot;
  /** The project's lock compared with what is installed; null without a lock (or when not asked). */
  lock: DoctorLock | null;
  problems: DoctorProblem[];
}

/**
 * `bosun doctor`: for every runtime with a bosun pack, whether the files are still what bosun
 * wrote (intact), whether the runtime's own CLI loaded each artifact (asked offline, every CLI
 * at once, each bounded by the timeout), whether it is signed in, and when the hook's status
 * line was last made. Reads only; the CLIs it asks may write their own caches and sessions.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const ctx = { env: options.env, home: options.home, cwd: options.cwd };
  const explicit = options.runtimes !== undefined;
  const statuses = collectInstallStatus({ runtimes: options.runtimes ?? listInstallRuntimes(), ...(options.scopes ? { scopes: options.scopes } : {}), ctx, fs: nodeFs, checkDrift: true, includeMissing: explicit });
  const byRuntime = new Map<string, RootStatus[]>();
  for (const status of statuses) if (status.installed || explicit) byRuntime.set(status.runtime, [...(byRuntime.get(status.runtime) ?? []), status]);
  const detection = machineDetectionContext(options.env, { home: options.home, data: options.dataDir }, options.cwd);
  const installRuntimes = options.runtimes ?? listInstallRuntimes();
  const copies = bosunCopies(options);
  const checks = [...byRuntime.entries()].map(async ([id, roots]) => {
    const runtime = installRuntimes.find((entry) => entry.id === id)!;
    return doctorRuntime(runtime, roots.filter((root) => root.installed), options, detection, copies);
  });
  const runtimes = await Promise.all(checks);
  if (explicit) {
    for (const runtime of options.runtimes!) if (!runtimes.some((entry) => entry.runtime === runtime.id)) runtimes.push({ runtime: runtime.id, title: runtime.title, cli: null, signIn: null, roots: [], artifacts: [], probe: null });
  }
  const hook = readHookSnapshot(options.dataDir);
  const lock = options.packageRoot === undefined ? null : doctorLock({ env: options.env, home: options.home, cwd: options.cwd, packageRoot: options.packageRoot, ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}) });
  const problems = [...runtimes.flatMap((runtime) => runtimeProblems(runtime)), ...lockProblems(lock)];
  return { ok: problems.length === 0, timeoutMs: options.timeoutMs, runtimes, hook, lock, problems };
}

async function doctorRuntime(runtime: InstallRuntime, roots: RootStatus[], options: DoctorOptions, detection: ReturnType<typeof machineDetectionContext>, copies: ReadonlySet<string>): Promise<RuntimeDoctor> {
  const status = findById(listRuntimes(), runtime.id);
  const places = withListingHints(artifactPlaces(runtime, roots, options));
  const report = status ? await reportRuntime(status, runtimeConfig(options.agentsConfig, runtime.id), detection) : null;
  const path = report?.installed ? (locateBinary(report.binary, detection) ?? null) : null;
  const cli = report && hasProbe(runtime.id) ? { binary: report.binary, path, installed: report.installed } : null;
  let answer: ProbeAnswer | null = null;
  if (cli?.path && places.length > 0) {
    answer = await probeCli(runtime.id, { bin: cli.path, env: options.env, cwd: options.cwd, timeoutMs: options.timeoutMs, wantsSkills: places.some(({ artifact }) => artifact.kind === "skill"), wantsMcp: places.some(({ artifact }) => artifact.kind === "mcp") });
  }
  const artifacts: ArtifactDoctor[] = places.map((place) => {
    const base = { kind: place.artifact.kind, name: place.artifact.name, pack: place.artifact.pack, scope: place.scope, path: join(place.rootDir, place.artifact.file) };
    if (!cli) return { ...base, state: "unchecked", reason: "bosun cannot ask this agent what it loaded" };
    if (!cli.path) return { ...base, state: "unchecked", reason: `${runtime.id}'s CLI is not installed` };
    if (!answer) return { ...base, state: "unchecked", reason: "not asked" };
    if ("failure" in answer) return { ...base, state: "unchecked", reason: `${runtime.id} could not be asked` };
    const verdict = loadVerdict(place, answer.listing, runtime.id, copies);
    return { ...base, state: verdict.state, ...(verdict.reason ? { reason: verdict.reason } : {}) };
  });
  return {
    runtime: runtime.id,
    title: runtime.title,
    cli,
    signIn: report?.auth ?? null,
    roots: roots.map((root) => ({ scope: root.scope, key: root.key, dir: root.dir, packs: root.packs.map(({ name, version }) => ({ name, version })), intact: intactCheck(root, nodeFs) })),
    artifacts,
    probe: answer ? { asked: answer.how, ms: answer.ms, ...("failure" in answer ? { failure: answer.failure } : {}) } : null,
  };
}

/** Every artifact of the roots, with the skills the runtime reads from a shared folder where bosun put them instead of a copy of its own. */
function artifactPlaces(runtime: InstallRuntime, roots: readonly RootStatus[], options: DoctorOptions): ArtifactPlace[] {
  const ctx = { env: options.env, home: options.home, cwd: options.cwd };
  return roots.flatMap((root) => {
    const manifest = readManifest(nodeFs, manifestPath(runtime, root, options)).manifest;
    const own = installedArtifacts(runtime, root.scope, root.key, manifest).map((artifact) => ({ artifact, scope: root.scope, rootDir: root.dir }));
    if (root.key !== "main") return own;
    const shared = skippingReads(runtime, root.scope, ctx).flatMap((dir) => {
      const sharedRoot = dirname(dir);
      const sharedManifest = readManifest(nodeFs, join(sharedRoot, MANIFEST_FILE)).manifest;
      return sharedSkills(manifest, sharedManifest, basename(dir)).map((artifact) => ({ artifact, scope: root.scope, rootDir: sharedRoot }));
    });
    return [...own, ...shared];
  });
}

/**
 * What matching needs beyond the manifest: an agent's frontmatter name where it is not its file's
 * (a variant named after its base agent), and for another pack's hook, how many such hooks are on
 * its event (the CLI says how the hooks on an event ran, not whose each was).
 */
function withListingHints(places: ArtifactPlace[]): ArtifactPlace[] {
  const onEvent = new Map<string, number>();
  for (const { artifact } of places) if (artifact.kind === "hook" && artifact.pack !== OWN_PACK && artifact.event) onEvent.set(artifact.event.toLowerCase(), (onEvent.get(artifact.event.toLowerCase()) ?? 0) + 1);
  return places.map((place) => {
    const { artifact } = place;
    if (artifact.kind === "hook" && artifact.pack !== OWN_PACK && artifact.event) return { ...place, hooksOnEvent: onEvent.get(artifact.event.toLowerCase()) ?? 1 };
    if (artifact.kind !== "agent") return place;
    const listedAs = frontmatterName(join(place.rootDir, artifact.file));
    return listedAs && listedAs !== artifact.name ? { ...place, listedAs } : place;
  });
}

/**
 * The `name` in a markdown file's frontmatter, read from its head (a FIFO in its place is not
 * waited on); undefined when it has none, or the file does not read or parse (the CLI's listing
 * says the rest).
 */
function frontmatterName(path: string): string | undefined {
  try {
    const name = parseFrontmatter(readFileStart(path, FRONTMATTER_BYTES).data.toString("utf8"), path).data.name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every artifact file bosun installed, for any runtime in the scopes checked: a CLI that reads a
 * folder several agents share may load another runtime's copy of bosun's skill, and that is
 * bosun's artifact loaded, not a stranger shadowing it.
 */
function bosunCopies(options: DoctorOptions): Set<string> {
  const ctx = { env: options.env, home: options.home, cwd: options.cwd };
  const copies = new Set<string>();
  for (const runtime of listInstallRuntimes()) {
    const roots = collectInstallStatus({ runtimes: [runtime], ...(options.scopes ? { scopes: options.scopes } : {}), ctx, fs: nodeFs, checkDrift: false, includeMissing: false }).filter((root) => root.installed);
    for (const place of artifactPlaces(runtime, roots, options)) copies.add(join(place.rootDir, place.artifact.file));
  }
  return copies;
}

function manifestPath(runtime: InstallRuntime, root: RootStatus, options: DoctorOptions): string {
  const found = rootsFor(runtime, root.scope, { env: options.env, home: options.home, cwd: options.cwd }).find((entry) => entry.key === root.key);
  return found ? statePath(found, MANIFEST_FILE) : join(root.dir, MANIFEST_FILE);
}

/** The lock's differences, each a problem whose line says what differs (the fix: `bosun install --frozen`, or a new lock). */
function lockProblems(lock: DoctorLock | null): DoctorProblem[] {
  if (!lock) return [];
  if ("error" in lock) return [{ runtime: "", kind: "lock", text: lock.error }];
  return lock.drift.map((drift) => ({ runtime: drift.runtime ?? "", kind: "lock", text: `bosun.lock: ${drift.text}` }));
}

/** The problems of one runtime, each one line that says what to do. */
function runtimeProblems(runtime: RuntimeDoctor): DoctorProblem[] {
  const out: DoctorProblem[] = [];
  const add = (kind: DoctorProblem["kind"], text: string, artifact?: ArtifactDoctor) => out.push({ runtime: runtime.runtime, kind, ...(artifact ? { artifact: { kind: artifact.kind, name: artifact.name, scope: artifact.scope } } : {}), text });
  const reinstall = (scope: InstallScope) => `bosun install --runtime ${runtime.runtime} --scope ${scope}`;
  if (runtime.roots.length === 0) {
    add("none", `${runtime.title}: bosun installed no pack here; install one with ${reinstall("global")}`);
    return out;
  }
  // bosun install keeps your edits and deletions (they are yours): an uninstall first gives bosun's files back.
  const restore = (scope: InstallScope) => `bosun uninstall --runtime ${runtime.runtime} --scope ${scope} (it backs up changed files) then ${reinstall(scope)} puts bosun's back`;
  for (const root of runtime.roots) {
    for (const file of root.intact.files) add("intact", `${runtime.title} (${root.scope}): ${file.path} ${file.change === "missing" ? "is missing" : `was ${file.change}`}; if that was not you, ${restore(root.scope)}`);
    for (const entry of root.intact.config) add("intact", `${runtime.title} (${root.scope}): bosun's entry is gone from ${entry}; if that was not you, ${restore(root.scope)}`);
    for (const problem of root.intact.problems) add("intact", `${runtime.title} (${root.scope}): ${problem}; run ${reinstall(root.scope)}`);
  }
  if (runtime.probe?.failure) add("probe", `${runtime.title}: ${runtime.probe.asked} ${runtime.probe.failure}; check that ${runtime.cli?.path ?? runtime.runtime} runs${runtime.probe.failure.startsWith("did not answer") ? ", or give it longer with --timeout" : ""}`);
  for (const artifact of runtime.artifacts) {
    if (artifact.state !== "not-loaded") continue;
    const changed = runtime.roots.some((root) => root.scope === artifact.scope && root.intact.files.some((file) => artifact.path === `${root.dir}/${file.path}`));
    add("loaded", `${runtime.title} (${artifact.scope}): ${kindWord(artifact.kind)} ${artifact.name} is not loaded (${artifact.reason ?? "not listed"}); ${changed ? "its file changed (see above)" : fixFor(runtime, artifact)}`, artifact);
  }
  return out;
}

function fixFor(runtime: RuntimeDoctor, artifact: ArtifactDoctor): string {
  const reason = artifact.reason ?? "";
  if (reason.startsWith("untrusted folder")) {
    if (runtime.runtime === "gemini") return "trust this folder in Gemini CLI (start gemini here and trust it, or add it to ~/.gemini/trustedFolders.json)";
    if (runtime.runtime === "codex") return "trust this project in Codex (start codex here and trust it, or set trust_level = \"trusted\" under [projects.\"<this folder>\"] in ~/.codex/config.toml)";
    return `trust this folder in ${runtime.title}`;
  }
  if (reason.startsWith("disabled")) return `enable it again in ${runtime.title}'s settings`;
  if (reason.startsWith("shadowed")) return "rename or remove the other one";
  if (artifact.kind === "mcp" && reason.includes("could not start it")) return `check that its command runs (bosun mcp test ${artifact.name}, for a server of bosun.json), then ask ${runtime.runtime} again`;
  return `start ${runtime.runtime} here to see what it says about ${artifact.path}`;
}
