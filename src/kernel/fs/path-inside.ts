import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is `folder` itself or somewhere below it, by their names (symlinks are not followed). */
export function isInside(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}
