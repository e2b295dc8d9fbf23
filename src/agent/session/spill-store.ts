import { closeSync, writeSync } from "node:fs";
import { join } from "node:path";
import { asFolderError } from "../../kernel/fs/folder-error.js";
import { ensurePrivateDir } from "../../kernel/fs/private-dir.js";
import { openRegularFileForWriting } from "../../kernel/fs/regular-file.js";
import { createStreamRedactor, type Redactor } from "../../kernel/redact/secrets.js";
import type { SpillStore } from "../tools/tool.js";

/**
 * Spill files in one folder (the session's), created on first use, private to the user, and
 * redacted on the way in: a spilled command output never holds a known secret either. A FIFO or
 * symlink left at a spill file's path is refused, not written through.
 */
export function createSpillStore(dir: string, redactor: Redactor): SpillStore {
  const fileName = (name: string) => join(dir, name.replace(/[^A-Za-z0-9._-]/g, "_"));
  const openSpill = (name: string) => {
    ensurePrivateDir(dir);
    const path = fileName(name);
    return { path, fd: openRegularFileForWriting(path) };
  };
  const write = (fd: number, text: string) => {
    try {
      writeSync(fd, text);
    } catch (error) {
      throw asFolderError(error, dir);
    }
  };
  return {
    dir,
    write(name, content) {
      const { path, fd } = openSpill(name);
      try {
        write(fd, redactor.text(content));
      } finally {
        closeSync(fd);
      }
      return path;
    },
    open(name) {
      const { path, fd } = openSpill(name);
      const stream = createStreamRedactor(redactor);
      let open = true;
      return {
        path,
        write(chunk) {
          if (open) write(fd, stream.push(chunk));
        },
        async close() {
          if (!open) return;
          open = false;
          try {
            write(fd, stream.end());
          } finally {
            closeSync(fd);
          }
        },
      };
    },
  };
}
