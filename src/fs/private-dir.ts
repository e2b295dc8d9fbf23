import * as nodeFs from "node:fs";
import { dirname } from "node:path";

/**
 * Creates one of bosun's own folders readable by the user only (0700), leaving the mode of any
 * parent it has to create (`~/.local`, `~/.config`…) to the umask, as other programs expect.
 */
export function ensurePrivateDir(dir: string, fs: Pick<typeof nodeFs, "mkdirSync"> = nodeFs): void {
  fs.mkdirSync(dirname(dir), { recursive: true });
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}
