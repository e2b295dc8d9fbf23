// The README's first command, as bench/boot.mjs times it and test/cli/cli.test.ts runs it.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const PREFIX = "npm install && ";

/**
 * What follows `npm install && ` on the first README line that starts so, without its comment,
 * split into the command (as written, e.g. `./bin/bosun.js`) and its arguments.
 */
export function readmeFirstCommand(root) {
  const line = readFileSync(join(root, "README.md"), "utf8").split("\n").find((text) => text.startsWith(PREFIX));
  if (!line) throw new Error(`README.md has no line starting with \`${PREFIX}\``);
  const [command, ...args] = line.slice(PREFIX.length).replace(/#.*/, "").trim().split(/\s+/);
  return { command, args };
}
