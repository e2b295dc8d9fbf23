// Bundles the compiled CLI (dist/cli/main.js, from tsc) into a few files under dist/bundle/.
// Node spends most of a short command's start resolving and linking modules; one file for the
// code every command needs, plus a chunk per lazily loaded part, keeps `bosun status` close to
// bare Node. Lazily loaded libraries stay lazy: dynamic import() becomes a separate chunk, and
// libraries loaded with requireLazily() (createRequire) are not bundled at all.
// zod's messages in other languages (`z.locales`, about half of its chunk) are left out: bosun
// speaks English (zod registers `en` itself), and a command that checks a file pays for parsing
// every byte of the chunk it loads (`bosun install` after one pack file changed, for example).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
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
  plugins: [englishOnlyZod()],
  logLevel: "warning",
});

/** Resolves zod's `locales/index.js` to a module that exports only `en` (the one zod uses by default). */
function englishOnlyZod() {
  return {
    name: "english-only-zod",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
        if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
        return { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-locales" };
      });
      build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), "en.js"))};\n`,
        resolveDir: dirname(args.path),
        loader: "js",
      }));
    },
  };
}
