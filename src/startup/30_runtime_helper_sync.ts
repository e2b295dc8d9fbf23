import { join } from "node:path";
import { displayPath } from "../kernel/paths.js";
import { HELPER_RELATIVE_PATH, packagedHelperPath, planHelperSync, replaceHelper, startHelperRefresh } from "../install/hook-helper.js";
import type { StartupContext, StartupStep, StepPlan } from "./types.js";

/**
 * The startup step that keeps bosun's hook helper (installed by `bosun install`, see
 * install/hook-helper.ts) current: a stale copy is replaced by the packaged one and refreshed.
 */
export const runtimeHelperSyncStep: StartupStep = {
  id: "30_runtime_helper_sync",
  plan(ctx: StartupContext): StepPlan {
    const target = join(ctx.paths.data, HELPER_RELATIVE_PATH);
    const planned = planHelperSync(target, packagedHelperPath(ctx.packageRoot));
    if ("result" in planned) {
      const { reason, warning } = planned.result;
      return { actions: [], notes: [warning ? { level: "warn", message: warning } : { level: "info", message: reason ?? "" }] };
    }
    return {
      actions: [
        {
          kind: "replace",
          describe: `replace the stale hook helper ${displayPath(target, ctx.paths.home)} with the packaged one`,
          apply: () => {
            const result = replaceHelper(planned.replace);
            if (!result.updated) throw new Error(result.warning);
            const failed = startHelperRefresh(target, join(ctx.packageRoot, "bin", "bosun.js"), ctx.spawnDetached);
            return failed ? [{ level: "warn", message: `the helper's refresh did not start: ${failed}` }] : [];
          },
        },
      ],
      notes: [],
    };
  },
};
