import { z } from "zod";
import type { ServerTool } from "./tool.js";

const MAX_TIMEOUT_SECONDS = 600;

const input = z
  .object({
    runtimes: z
      .array(z.string().trim().min(1, "a runtime id is empty"))
      .max(64)
      .optional()
      .describe("Only these runtimes (claude, codex, gemini, opencode, …); every runtime bosun installed a pack into by default"),
    timeout_seconds: z
      .number()
      .positive()
      .max(MAX_TIMEOUT_SECONDS)
      .optional()
      .describe(`How long each agent's CLI may take to answer (default 20, at most ${MAX_TIMEOUT_SECONDS})`),
  })
  .strict();

/**
 * `doctor`: for every runtime with a bosun pack, whether its files are intact, whether the
 * runtime's own CLI loaded each artifact (asked offline), its sign-in, the hook's last status and
 * the project's lock: the report `bosun doctor --json` prints. Problems found are the report's
 * content, not a failed call.
 */
export const doctorTool: ServerTool<z.infer<typeof input>> = {
  name: "doctor",
  title: "bosun doctor",
  description:
    "Check every pack bosun installed into coding agents: files intact, loaded by each agent's own CLI (asked offline), signed in, the session hook's last status, and the project's bosun.lock. " +
    "The same report as `bosun doctor --json`, with each problem and what to do about it. Takes up to the timeout per agent CLI.",
  input,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async call({ runtimes, timeout_seconds }, { boot, cwd }) {
    const [registry, { runDoctor, DEFAULT_PROBE_TIMEOUT_MS }] = await Promise.all([import("../../runtimes/registry.js"), import("../../doctor/doctor.js")]);
    const named = runtimes ? [...new Set(runtimes.map((id) => registry.getInstallRuntime(id)))] : undefined;
    const report = await runDoctor({
      ...(named ? { runtimes: named } : {}),
      env: boot.agentEnv,
      home: boot.paths.home,
      cwd,
      dataDir: boot.paths.data,
      agentsConfig: boot.config?.value.agents,
      timeoutMs: timeout_seconds === undefined ? DEFAULT_PROBE_TIMEOUT_MS : Math.round(timeout_seconds * 1000),
      packageRoot: boot.packageRoot,
      cacheDir: boot.paths.cache,
    });
    const checked = report.runtimes.map((runtime) => runtime.runtime);
    const head = report.ok
      ? `doctor: no problems (${checked.length > 0 ? `checked ${checked.join(", ")}` : "no pack installed in any agent"})`
      : `doctor found ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}:`;
    return { data: { ...report }, text: [head, ...report.problems.map((problem) => `- ${problem.text}`)].join("\n") };
  },
};
