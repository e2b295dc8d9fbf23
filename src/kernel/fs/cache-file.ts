import * as nodeFs from "node:fs";
import { dirname } from "node:path";

/**
 * Writes a cache file of bosun's own, best effort: a private folder, a temp file beside the
 * cache renamed over it (a reader never sees half of one). A cache that cannot be written is
 * simply not there next time, so a failure leaves no temp file and throws nothing. Synchronous and
 * without write-file-atomic on purpose: it runs at the end of short commands.
 */
export function saveCacheFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    nodeFs.mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    nodeFs.writeFileSync(temp, text, { mode: 0o600 });
    nodeFs.renameSync(temp, file);
  } catch {
    try {
      nodeFs.rmSync(temp, { force: true });
    } catch {
      // nothing was written there (a cache folder that is not one has none)
    }
  }
}
