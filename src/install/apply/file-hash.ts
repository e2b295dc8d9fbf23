import { constants } from "node:fs";
import { requireLazily } from "../../kernel/fs/require.js";
import type { InstallFs } from "./install-fs.js";

const crypto = () => requireLazily("node:crypto") as typeof import("node:crypto");
const CHUNK = 1024 * 1024;
let buffer: Buffer | undefined;

export function sha256(data: string | Uint8Array): string {
  return crypto().createHash("sha256").update(data).digest("hex");
}

/**
 * SHA-256 of a regular file, streamed in 1 MiB chunks and opened without following a symlink
 * (O_NOFOLLOW): a link planted where a file was is never read through.
 */
export function hashRegularFile(fs: InstallFs, path: string): string {
  const hash = crypto().createHash("sha256");
  buffer ??= Buffer.allocUnsafe(CHUNK);
  const fd = fs.openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
}

/** A symlink is identified by its target text, never by what it points to. */
export function hashSymlink(target: string): string {
  return sha256(`symlink\0${target}`);
}
