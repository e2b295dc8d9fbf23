import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { displayPath } from "../kernel/paths.js";
import { columns, styler } from "./output.js";
import type { SubsystemStatusSource } from "./subsystem-status.js";

/**
 * The install part of `bosun status`: for every coding agent whose folder exists (global, and
 * this project's), which packs bosun installed there. Read only and cheap: a stat per runtime,
 * and the manifest only where one exists; nothing is hashed (`bosun install --status` checks
 * for edits).
 */
export const installStatus: SubsystemStatusSource = async (boot, output) => {
  const [{ listInstallRuntimes }, { resolveGlobalRoot, resolveLocalRoot, MANIFEST_FILE }] = await Promise.all([import("../runtimes/registry.js"), import("../runtimes/kit/install-roots.js")]);
  const ctx = { env: boot.agentEnv, home: boot.paths.home, cwd: process.cwd() };
  const found: { runtime: string; scope: "global" | "local"; dir: string; manifest: string | null }[] = [];
  for (const runtime of listInstallRuntimes()) {
    const global = resolveGlobalRoot(runtime.installSurface.globalRoot, ctx).dir;
    if (existsSync(global)) found.push({ runtime: runtime.id, scope: "global", dir: global, manifest: existsOrNull(join(global, MANIFEST_FILE)) });
    // In the home folder a project's folder can be the user-wide one: it is listed once.
    const local = resolveLocalRoot(runtime, ctx);
    if (local?.dir === global) continue;
    const stateDir = runtime.installSurface.stateDir?.local ?? "";
    const localManifest = local ? existsOrNull(join(local.dir, stateDir, MANIFEST_FILE)) : null;
    if (local && localManifest) found.push({ runtime: runtime.id, scope: "local", dir: local.dir, manifest: localManifest });
  }
  const withManifest = found.filter((entry) => entry.manifest !== null);
  const installs = withManifest.length === 0 ? [] : await readInstalls(withManifest);
  const style = styler(output);
  const show = (path: string) => displayPath(path, boot.paths.home);
  const detected = [...new Set(found.filter((entry) => entry.scope === "global").map((entry) => entry.runtime))];
  const byKey = new Map(installs.map((install) => [`${install.runtime}/${install.scope}`, install]));
  const lines = columns(
    found.map((entry) => {
      const install = byKey.get(`${entry.runtime}/${entry.scope}`);
      const packs = install && install.packs.length > 0 ? install.packs.map((pack) => `${pack.name} ${pack.version} (${pack.files} files)`).join(", ") : style("dim", "not installed");
      return [entry.runtime, entry.scope, packs, show(entry.dir), install?.interrupted ? style("yellow", "interrupted install: run bosun install again") : ""];
    }),
    "",
  );
  const installed = installs.filter((install) => install.packs.length > 0);
  const attention = installs.some((install) => install.interrupted);
  const agents = new Set(installed.map((install) => install.runtime)).size;
  return {
    state: attention ? "attention" : installed.length > 0 ? "ready" : "not-set-up",
    detail:
      installed.length > 0
        ? `packs installed in ${agents} agent${agents === 1 ? "" : "s"} (bosun install --status)`
        : `no pack installed yet; ${detected.length} agent folder${detected.length === 1 ? "" : "s"} found${detected.length > 0 ? ` (${detected.join(", ")})` : ""}: bosun install --runtime R --scope global`,
    lines,
    data: { detected, installs },
    ...(installed.length > 0 ? { summary: `bosun pack in ${agents} agent${agents === 1 ? "" : "s"}` } : {}),
    ...(attention
      ? { next: "finish an interrupted install: run the same bosun install again (it rolls the interrupted run back first)" }
      : installed.length === 0 && detected.length > 0
        ? { next: `put bosun's pack into your agents: bosun install --runtime ${detected.join(",")} --scope global --dry-run, then without --dry-run` }
        : {}),
  };
};

async function readInstalls(entries: { runtime: string; scope: "global" | "local"; dir: string; manifest: string | null }[]) {
  const [nodeFs, { readManifest }] = await Promise.all([import("node:fs"), import("../install/records/manifest.js")]);
  return entries.map((entry) => {
    const { manifest } = readManifest(nodeFs, entry.manifest as string);
    return {
      runtime: entry.runtime,
      scope: entry.scope,
      root: entry.dir,
      packs: Object.entries(manifest.packs).map(([name, pack]) => ({ name, version: pack.version, files: pack.files.length })),
      interrupted: hasInterruptedJournal(join(entry.manifest as string, "..", "bosun-journal"), nodeFs.readFileSync),
    };
  });
}

/** A journal without its commit line: a run was killed part way (the next install rolls it back). */
function hasInterruptedJournal(dir: string, read: (path: string, encoding: "utf8") => string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((name) => name.endsWith(".jsonl") && !/"op":"commit"/.test(read(join(dir, name), "utf8")));
}

function existsOrNull(path: string): string | null {
  return existsSync(path) ? path : null;
}
