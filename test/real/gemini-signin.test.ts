// Differential test: for a generated set of credential states, bosun's Gemini sign-in verdict
// must be the real gemini 0.61.0's own (see test/fixtures/gemini-verdict.ts for how that is read
// offline). The CLI is the oracle: no state here says what the answer should be.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gemini } from "../../src/runtimes/gemini.js";
import type { AuthStatus } from "../../src/runtimes/kit/types.js";
import { buildGeminiState, generateStates, geminiStateContext, stateName, type State } from "../fixtures/gemini-signin-states.js";
import { geminiVerdict, type GeminiVerdictRun } from "../fixtures/gemini-verdict.js";
import { realCli } from "../fixtures/real-clis.js";
import { mapLimited } from "../fixtures/signin-matrix.js";

const STATES = generateStates();
const PARALLEL = 4;

interface Outcome {
  state: State;
  cli: GeminiVerdictRun;
  bosun: AuthStatus;
}

const secureFolders: string[] = [];
afterAll(() => {
  for (const dir of secureFolders) rmSync(dir, { recursive: true, force: true });
});

function build(labels: string[]): State {
  // /run is root's and not writable by others, unlike /tmp, so system settings there count.
  const secure = mkdtempSync("/run/bosun-gemini-");
  secureFolders.push(secure);
  return buildGeminiState(labels, secure);
}

/** bosun's verdict from the same environment and folder Gemini ran in. */
async function bosunVerdict(state: State): Promise<AuthStatus> {
  return gemini.status.authStatus({}, geminiStateContext(state));
}

const outcomes = new Map<string, Outcome>();
const name = stateName;

describe("gemini sign-in: bosun agrees with the real gemini 0.61.0", () => {
  beforeAll(async () => {
    const cli = realCli("gemini");
    const results = await mapLimited(STATES, PARALLEL, async (labels) => {
      const state = build(labels);
      const verdict = await geminiVerdict(cli, { home: state.layout.home, cwd: state.layout.project, env: state.env });
      return { state, cli: verdict, bosun: await bosunVerdict(state) };
    });
    for (const [i, labels] of STATES.entries()) outcomes.set(name(labels), results[i]!);
  }, 900_000);

  it(`covers at least 25 states, every ingredient and all three of Gemini's verdicts (${STATES.length} states)`, () => {
    expect(STATES.length).toBeGreaterThanOrEqual(25);
    const verdicts = new Set([...outcomes.values()].map((o) => o.cli.verdict));
    expect([...verdicts].sort()).toEqual(["online", "passed", "refused"]);
  });

  it.each(STATES.map((labels) => [name(labels)]))("%s", (label) => {
    const { state, cli, bosun } = outcomes.get(label)!;
    const context = `gemini: ${cli.verdict} (${cli.reason}); bosun: ${JSON.stringify(bosun)}`;
    expect(cli.verdict, context).not.toBe("unknown");
    if (cli.verdict === "online") {
      // Checked online by Gemini: bosun counts a Google login by its cached token file, and
      // Compute Engine credentials by the variable that chose them.
      const oauthFile = join(state.layout.gemini, ".gemini", "oauth_creds.json");
      const metadata = `${cli.run.stdout}${cli.run.stderr}`.includes("metadata server");
      expect(bosun.connected, context).toBe(metadata || state.files.has(oauthFile));
      if (bosun.connected && !metadata) expect(bosun.authPath, context).toBe(oauthFile);
      return;
    }
    expect(bosun.connected, context).toBe(cli.verdict === "passed");
    if (bosun.connected) {
      // The source bosun names is one the state really has: a variable set, or a file written.
      if (bosun.mode === "env") expect(Object.keys(state.env), context).toContain(bosun.authPath);
      else expect([...state.files.keys()], context).toContain(bosun.authPath);
    }
  });
});
