import { displayPathsIn, FOLDER_VARIABLES, variablesMoving, type FolderName } from "../kernel/paths.js";
import type { Boot } from "../app/start.js";
import { inspectFolder } from "../kernel/fs/folder-error.js";
import { columns } from "./output.js";
import type { SubsystemStatus } from "./subsystem-status.js";

/**
 * The folders part of `bosun status`: each of bosun's four folders that bosun could not create or
 * write, with the fix, found by reading only (a stat and an access check per folder).
 */
export async function foldersStatus(boot: Boot): Promise<SubsystemStatus> {
  const { paths } = boot;
  const problems = (Object.keys(FOLDER_VARIABLES) as FolderName[]).flatMap((folder) => {
    const found = inspectFolder(paths[folder]);
    if (!found) return [];
    const error = found.withVariables(variablesMoving(found.folder, paths));
    return [{ folder, path: paths[folder], at: error.folder, problem: error.problem, message: error.message }];
  });
  if (problems.length === 0) return { state: "ready", detail: "config, data, cache and state can be written", data: { problems } };
  const names = problems.map((problem) => problem.folder);
  const which = names.length === 1 ? `the ${names[0]} folder` : `the ${names.slice(0, -1).join(", ")} and ${names.at(-1)} folders`;
  return {
    state: "attention",
    detail: `bosun cannot write ${which}`,
    lines: columns(problems.map((problem) => [problem.folder, displayPathsIn(problem.message, paths.home)]), ""),
    data: { problems },
    summary: `cannot write ${which}`,
    next: `fix ${which}: ${problems[0]!.message}`,
  };
}
