// The import direction of src/ is checked by `npm run depcheck` (dependency-cruiser with the
// repo's .dependency-cruiser.cjs) on every `npm test`. This runs the same check on a small tree
// that breaks each rule once, so a rule that stopped matching would be noticed.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const DEPCRUISE = join(PACKAGE_ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

function cruise(files: Record<string, string>): { rule: string; from: string; to: string }[] {
  const t = makeTempHome();
  const dir = join(t.root, "repo");
  t.write(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true }, include: ["src"] }));
  t.write(join(dir, "package.json"), JSON.stringify({ name: "layers", type: "module", devDependencies: { vitest: "4.1.12" } }));
  for (const [path, text] of Object.entries(files)) t.write(join(dir, path), text);
  // A devDependency the tree can resolve, so the check sees what it is.
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(join(PACKAGE_ROOT, "node_modules", "vitest"), join(dir, "node_modules", "vitest"));
  const run = spawnSync(process.execPath, [DEPCRUISE, "src", "--config", join(PACKAGE_ROOT, ".dependency-cruiser.cjs"), "--output-type", "json"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  expect(run.stdout, run.stderr).not.toBe("");
  const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return result.summary.violations.map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to })).sort((a, b) => (a.rule + a.from < b.rule + b.from ? -1 : 1));
}

describe("the dependency check", () => {
  it("fails on an import against the direction, a circle (type-only too), a file outside the layers, kit importing a runtime, a devDependency in src", () => {
    const violations = cruise({
      "src/kernel/paths.ts": 'import { main } from "../cli/main.js";\nexport const paths = () => main;\n',
      "src/cli/main.ts": "export const main = 1;\n",
      "src/catalog/open.ts": 'import type { Boot } from "../app/start.js";\nexport type Open = Boot;\n',
      "src/app/start.ts": "export interface Boot { ok: true }\n",
      "src/agent/a.ts": 'import type { B } from "./b.js";\nexport interface A { b?: B }\n',
      "src/agent/b.ts": 'import type { A } from "./a.js";\nexport interface B { a?: A }\n',
      "src/runtimes/kit/types.ts": 'import { claude } from "../claude.js";\nexport const first = claude;\n',
      "src/runtimes/claude.ts": "export const claude = 1;\n",
      "src/helpers/misc.ts": 'import { main } from "../cli/main.js";\nexport const x = main;\n',
      "src/install/plan.ts": 'import "vitest";\nexport const plan = 1;\n',
      "src/install/gone.ts": 'import "./missing.js";\nexport const gone = 1;\n',
    });
    const rules = violations.map((violation) => `${violation.rule}: ${violation.from} → ${violation.to}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        "kernel-imports-only-below: src/kernel/paths.ts → src/cli/main.ts",
        "catalog-imports-only-below: src/catalog/open.ts → src/app/start.ts",
        "no-circular: src/agent/a.ts → src/agent/b.ts",
        "kit-is-below-the-runtimes: src/runtimes/kit/types.ts → src/runtimes/claude.ts",
        "no-unknown-folder: src/helpers/misc.ts → src/cli/main.ts",
      ]),
    );
    expect(rules).toContainEqual(expect.stringMatching(/^no-dev-dependency-in-src: src\/install\/plan\.ts → .*node_modules\/vitest\//));
    expect(rules).toContain("no-unresolvable: src/install/gone.ts → ./missing.js");
  });

  it("passes a tree that keeps the direction", () => {
    expect(
      cruise({
        "src/kernel/paths.ts": "export const home = '/h';\n",
        "src/runtimes/kit/types.ts": 'import { home } from "../../kernel/paths.js";\nexport const where = home;\n',
        "src/runtimes/claude.ts": 'import { where } from "./kit/types.js";\nexport const claude = where;\n',
        "src/app/start.ts": 'import { claude } from "../runtimes/claude.js";\nexport const start = claude;\n',
        "src/cli/main.ts": 'import { start } from "../app/start.js";\nexport const main = start;\n',
      }),
    ).toEqual([]);
  });
});
