import { dirname, join } from "node:path";
import { CredentialReadError, type FileReader } from "./kit/detect/file-reader.js";
import { parseJson } from "./kit/detect/secret-rules.js";

/** The npm package of the community `grok` CLI (not xAI's Grok Build, which has the same binary name). */
export const NPM_GROK_PACKAGE = "@vibe-kit/grok-cli";

// Its entry point is <package>/dist/index.js; a few levels cover other layouts of the same package.
const PACKAGE_LEVELS = 4;
// Launchers (pnpm's and volta's shell shims, npm's .cmd) are small; a native binary is not read.
const LAUNCHER_BYTES = 64 * 1024;

/**
 * Whether the `grok` at `binary` is the npm `@vibe-kit/grok-cli`, without running it: the file
 * (through its symlinks) sits in a package whose `package.json` names that package, or it is a
 * small launcher script that starts that package. Anything unreadable counts as "no".
 */
export function isNpmGrok(binary: string, files: FileReader): boolean {
  try {
    const info = files.stat(binary);
    if (!info || info.kind !== "file") return false;
    if (nearestPackageName(info.realPath ?? binary, files) === NPM_GROK_PACKAGE) return true;
    return info.size <= LAUNCHER_BYTES && files.readText(binary, LAUNCHER_BYTES).includes(`${NPM_GROK_PACKAGE}/`);
  } catch (error) {
    if (error instanceof CredentialReadError) return false;
    throw error;
  }
}

/** The `name` of the closest `package.json` above the file, when it is within a few levels. */
function nearestPackageName(file: string, files: FileReader): string | undefined {
  let dir = dirname(file);
  for (let level = 0; level < PACKAGE_LEVELS; level++) {
    const manifest = join(dir, "package.json");
    if (files.stat(manifest)?.kind === "file") {
      const parsed = parseJson(files.readText(manifest, LAUNCHER_BYTES));
      const name = (parsed?.value as { name?: unknown } | null | undefined)?.name;
      return typeof name === "string" ? name : undefined;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}
