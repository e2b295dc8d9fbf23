// Bundles the compiled CLI (dist/cli/main.js, from tsc) into a few files under dist/bundle/.
// Node spends most of a short command's start resolving and linking modules; one file for the
// code every command needs, plus a chunk per lazily loaded part, keeps `bosun status` close to
// bare Node. Lazily loaded libraries stay lazy: dynamic import() becomes a separate chunk, and
// libraries loaded with requireLazily() (createRequire) are not bundled at all.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/bundle`;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [`${root}dist/cli/main.js`],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // tsx loads TypeScript extensions through its own loader hooks: it must stay a real package.
  external: ["tsx", "tsx/*"],
  // CommonJS dependencies bundled into ES modules call require(); give them Node's.
  banner: { js: 'import { createRequire as __bosunCreateRequire } from "node:module"; const require = __bosunCreateRequire(import.meta.url);' },
  // Class and function names stay as written: errors are told apart by name (e.g. CommanderError).
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
});
