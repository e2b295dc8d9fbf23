import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** bosun's package folder (this file is at `<root>/{src,dist}/kernel/`). */
export function packageRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

let version: string | undefined;

/** bosun's version, from its package.json. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
  return version;
}
