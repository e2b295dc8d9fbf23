import { join } from "node:path";
import { displayPath } from "../kernel/paths.js";
import { describeError } from "../kernel/errors.js";
import { requireLazily } from "../kernel/fs/require.js";
import { lstatIfExists } from "./move.js";
import type { StartupContext, StartupStep, StepPlan } from "./types.js";

const MAX_AGENT_JSON_BYTES = 1024 * 1024;

export const agentsJsonToYamlStep: StartupStep = {
  id: "20_agents_json_to_yaml",
  plan: planAgentsJsonToYaml,
};

/** The folders that hold agent profiles (`<root>/<name>/agent.{json,yaml}`). */
export function agentProfileRoots(ctx: StartupContext): string[] {
  const roots = [join(ctx.paths.data, "agents"), join(ctx.paths.config, "agents")];
  if (ctx.project) roots.push(join(ctx.project.dotDir, "agents"));
  return roots;
}

/**
 * Plans writing `agent.yaml` next to every `agent.json` profile that has none, with the same
 * content. The JSON file is kept. A malformed JSON file is reported and skipped; the others still
 * convert.
 */
export function planAgentsJsonToYaml(ctx: StartupContext): StepPlan {
  const { fs, paths } = ctx;
  const plan: StepPlan = { actions: [], notes: [] };
  const show = (path: string) => displayPath(path, paths.home);
  for (const root of agentProfileRoots(ctx)) {
    if (!lstatIfExists(fs, root)?.isDirectory()) continue;
    for (const name of fs.readdirSync(root).sort()) {
      const jsonFile = join(root, name, "agent.json");
      const yamlFile = join(root, name, "agent.yaml");
      const json = lstatIfExists(fs, jsonFile);
      if (!json || lstatIfExists(fs, yamlFile)) continue;
      if (!json.isFile() || json.size > MAX_AGENT_JSON_BYTES) {
        plan.notes.push({ level: "warn", message: `${show(jsonFile)} is not a regular file under 1 MiB; not converted` });
        continue;
      }
      let profile: unknown;
      try {
        profile = JSON.parse(fs.readFileSync(jsonFile, "utf8"));
      } catch (error) {
        plan.notes.push({ level: "warn", message: `${show(jsonFile)} is not valid JSON (${describeError(error)}); not converted` });
        continue;
      }
      if (typeof profile !== "object" || profile === null || Array.isArray(profile)) {
        plan.notes.push({ level: "warn", message: `${show(jsonFile)} does not hold a JSON object; not converted` });
        continue;
      }
      const mode = json.mode & 0o777;
      plan.actions.push({
        kind: "write",
        describe: `write ${show(yamlFile)} from agent.json`,
        apply: () => writeNewFileAtomically(yamlFile, toYaml(profile), mode),
      });
    }
  }
  return plan;
}

function toYaml(value: unknown): string {
  const yaml = requireLazily("yaml") as typeof import("yaml");
  return yaml.stringify(value);
}

function writeNewFileAtomically(file: string, text: string, mode: number): void {
  const writeFileAtomic = requireLazily("write-file-atomic") as typeof import("write-file-atomic");
  writeFileAtomic.sync(file, text, { mode });
}
