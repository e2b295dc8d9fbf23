import { closeSync, openSync, readSync } from "node:fs";
import { requireLazily } from "./require.js";

/** SHA-256 of a file's bytes, read in chunks so large files do not fill memory. */
export function sha256FileSync(path: string): string {
  // node:crypto is loaded on first use: most starts hash nothing.
  const hash = (requireLazily("node:crypto") as typeof import("node:crypto")).createHash("sha256");
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const fd = openSync(path, "r");
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}
