import { join } from "node:path";
import type { FileReader } from "./detect/file-reader.js";
import { nodeFileReader } from "./detect/node-file-reader.js";

/** OpenSSH's key files are `id_<type>` (and any `id_*` a user names); the public halves end in `.pub`. */
function isSshPrivateKeyName(name: string): boolean {
  return name.startsWith("id_") && !name.endsWith(".pub");
}

/**
 * The SSH private keys in `~/.ssh`: every regular file (symlinks followed) named `id_*` but not
 * `*.pub`. The only credential list that has to look at the disk, so it is kept apart from the
 * pure ones. A missing folder is no keys; one that cannot be listed throws `CredentialReadError`.
 */
export function listSshPrivateKeys(home: string, files: FileReader = nodeFileReader): string[] {
  const dir = join(home, ".ssh");
  return files
    .list(dir)
    .filter(isSshPrivateKeyName)
    .map((name) => join(dir, name))
    .filter((path) => files.stat(path)?.kind === "file");
}
