import type { RootPlan } from "../plan/plan-types.js";
import type { InstallRoot } from "./root.js";
import type { RootResult } from "../run-install.js";

/** A root's result before anything was done there (its own file: a settled reinstall makes one without loading the runner). */
export function rootResult(root: InstallRoot, plan: RootPlan, status: RootResult["status"]): RootResult {
  return { root, plan, status, journal: null, backups: [], recovered: [], interrupted: false, outcomes: new Map() };
}
