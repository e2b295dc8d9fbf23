import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../fs/private-dir.js";
import { createStreamRedactor, type Redactor } from "./secrets.js";
import type { SpillStore } from "./tools/tool.js";

/**
 * Spill files in one folder (the session's), created on first use, private to the user, and
 * redacted on the way in: a spilled command output never holds a known secret either.
 */
export function createSpillStore(dir: string, redactor: Redactor): SpillStore {
  const fileName = (name: string) => join(dir, name.replace(/[^A-Za-z0-9._-]/g, "_"));
  return {
    dir,
    write(name, content) {
      ensurePrivateDir(dir);
      const path = fileName(name);
      const fd = openSync(path, "w", 0o600);
      try {
        writeSync(fd, redactor.text(content));
      } finally {
        closeSync(fd);
      }
      return path;
    },
    open(name) {
      ensurePrivateDir(dir);
      const path = fileName(name);
      const fd = openSync(path, "w", 0o600);
      const stream = createStreamRedactor(redactor);
      let open = true;
      return {
        path,
        write(chunk) {
          if (open) writeSync(fd, stream.push(chunk));
        },
        async close() {
          if (!open) return;
          open = false;
          writeSync(fd, stream.end());
          closeSync(fd);
        },
      };
    },
  };
}
