import { isSkip, type InstallLayout } from "../../runtimes/kit/install-types.js";

/** A folder of the layout that lies in the given root, and what it holds. */
export interface SurfaceDir {
  kind: "skills" | "commands" | "agents" | "hooks";
  dir: string;
}

/** The folders a runtime's layout puts artifacts in, within one root (`main` or an extra root). */
export function surfaceDirs(layout: InstallLayout, rootKey: string, packName: string): SurfaceDir[] {
  const dirs: SurfaceDir[] = [];
  if (!isSkip(layout.skills) && (layout.skills.root ?? "main") === rootKey) dirs.push({ kind: "skills", dir: layout.skills.category ? `${layout.skills.dir}/${packName}` : layout.skills.dir });
  if (!isSkip(layout.commands) && (layout.commands.root ?? "main") === rootKey) dirs.push({ kind: "commands", dir: layout.commands.dir });
  if (!isSkip(layout.agents) && rootKey === "main") dirs.push({ kind: "agents", dir: layout.agents.dir });
  if (!isSkip(layout.hooks) && rootKey === "main") {
    dirs.push({ kind: "hooks", dir: layout.hooks.filesDir });
    if (layout.hooks.register.kind === "file") dirs.push({ kind: "hooks", dir: layout.hooks.register.dir });
  }
  return dirs;
}

/** The folder for one kind in this root, or null when the kind is skipped or placed elsewhere. */
export function surfaceDir(layout: InstallLayout, rootKey: string, packName: string, kind: SurfaceDir["kind"]): string | null {
  return surfaceDirs(layout, rootKey, packName).find((surface) => surface.kind === kind)?.dir ?? null;
}

/** Folders that hold surfaces: never removed when they empty (the runtime owns them). */
export function protectedDirs(layout: InstallLayout, rootKey: string, packName: string): Set<string> {
  const dirs = new Set<string>([""]);
  for (const surface of surfaceDirs(layout, rootKey, packName)) {
    const parts = surface.dir.split("/");
    for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  // Hermes's category folder is the pack's own; it may go when its last skill goes.
  if (!isSkip(layout.skills) && layout.skills.category) dirs.delete(`${layout.skills.dir}/${packName}`);
  return dirs;
}
