// The direction of imports in src/ (README "Development"): each layer may import the layers below
// it and nothing above; no circles anywhere, type-only imports included. `npm test` runs this
// check (`npm run depcheck`); it has no exceptions, and should stay that way.
/** From the bottom. The kernel imports nothing else in src/; only cli/ imports app/. */
const LAYERS = ["kernel", "extensions", "runtimes", "mcp", "catalog", "install", "doctor", "startup", "llm", "agent", "app", "web", "cli"];

const folder = (name) => `^src/${name}/`;

const direction = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `${layer}-imports-only-below`,
  comment: `src/${layer}/ may import only ${LAYERS.slice(0, index).join(", ") || "nothing else in src/"}`,
  severity: "error",
  from: { path: folder(layer) },
  to: { path: `^src/(${LAYERS.slice(index + 1).join("|")})/` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "a circle of imports (type-only imports count)",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-unknown-folder",
      comment: `every file under src/ lives in one of the layers: ${LAYERS.join(", ")}`,
      severity: "error",
      from: { path: "^src/", pathNot: `^src/(${LAYERS.join("|")})/` },
      to: {},
    },
    {
      name: "no-unresolvable",
      comment: "an import that resolves to nothing",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
    {
      name: "no-dev-dependency-in-src",
      comment: "src/ ships to users: it may not import a devDependency",
      severity: "error",
      from: { path: "^src/" },
      to: { dependencyTypes: ["npm-dev"] },
    },
    {
      name: "kit-is-below-the-runtimes",
      comment: "src/runtimes/kit/ holds what every runtime shares: it may not import a runtime, the registry or anything else in src/runtimes/ outside kit/",
      severity: "error",
      from: { path: "^src/runtimes/kit/" },
      to: { path: "^src/runtimes/", pathNot: "^src/runtimes/kit/" },
    },
    ...direction,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
