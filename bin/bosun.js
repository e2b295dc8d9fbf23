#!/usr/bin/env node
// bosun's command: runs the compiled CLI (`npm install` builds it into dist/).
import { existsSync } from "node:fs";

const entry = new URL("../dist/bundle/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("bosun: the compiled CLI is missing (dist/); run `npm install` in bosun's folder to build it\n");
  process.exit(2);
}
// A reader that stops early (`bosun status | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
