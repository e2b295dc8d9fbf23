// Differential test: for a generated set of credential states, bosun's Gemini sign-in verdict
// must be the real gemini 0.61.0's own (see test/fixtures/gemini-verdict.ts for how that is read
// offline). The CLI is the oracle: no state here says what the answer should be.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../src/boot/paths.js";
import { nodeFileReader } from "../../src/runtimes/detect/node-file-reader.js";
import { gemini } from "../../src/runtimes/gemini.js";
import type { AuthStatus, DetectionContext } from "../../src/runtimes/types.js";
import { geminiVerdict, type GeminiVerdictRun } from "../fixtures/gemini-verdict.js";
import { seededRandom } from "../fixtures/random.js";
import { realCli } from "../fixtures/real-clis.js";
import { makeTempHome } from "../fixtures/temp-home.js";
import { mapLimited } from "../fixtures/signin-matrix.js";

/** Where a state's files go. `gemini` is the folder that holds `.gemini` (HOME, or GEMINI_CLI_HOME). */
interface Layout {
  root: string;
  home: string;
  project: string;
  gemini: string;
  /** A root-owned folder no one else may write to: Gemini reads system settings only from such a place. */
  secure: string;
}

interface Ingredient {
  label: string;
  /** Applied first (GEMINI_CLI_HOME moves where the others write). */
  early?: boolean;
  apply(state: State): void;
}

class State {
  env: Env = {};
  files = new Map<string, string>();
  labels: string[] = [];
  constructor(readonly layout: Layout) {}
  put(path: string, content: string): void {
    this.files.set(path, content);
  }
  settings(path: string, value: unknown): void {
    this.put(path, JSON.stringify(value));
  }
}

// Fake values only; each is distinct so a reported source can be traced.
const KEY = "AIzaSy-test-gemini-key-000000000000";
const selected = (type: string) => ({ security: { auth: { selectedType: type } } });
const userSettings = (s: State) => join(s.layout.gemini, ".gemini", "settings.json");
const VERTEX_VARS = { GOOGLE_GENAI_USE_VERTEXAI: "true", GOOGLE_CLOUD_PROJECT: "test-project", GOOGLE_CLOUD_LOCATION: "us-central1" };
const dotenv = (vars: Record<string, string>) => Object.entries(vars).map(([k, v]) => `${k}=${v}`).join("\n") + "\n";

const INGREDIENTS: Ingredient[] = [
  { label: "GEMINI_CLI_HOME", early: true, apply: (s) => void (s.env.GEMINI_CLI_HOME = s.layout.gemini) },
  { label: "env GEMINI_API_KEY", apply: (s) => void (s.env.GEMINI_API_KEY = KEY) },
  { label: "env GEMINI_API_KEY empty", apply: (s) => void (s.env.GEMINI_API_KEY = "") },
  { label: "env GOOGLE_API_KEY", apply: (s) => void (s.env.GOOGLE_API_KEY = KEY) },
  { label: "env GOOGLE_GENAI_USE_VERTEXAI", apply: (s) => void (s.env.GOOGLE_GENAI_USE_VERTEXAI = "true") },
  { label: "env GOOGLE_CLOUD_PROJECT+LOCATION", apply: (s) => Object.assign(s.env, { GOOGLE_CLOUD_PROJECT: "test-project", GOOGLE_CLOUD_LOCATION: "us-central1" }) },
  { label: "env GOOGLE_GENAI_USE_GCA", apply: (s) => void (s.env.GOOGLE_GENAI_USE_GCA = "true") },
  { label: "env GOOGLE_GENAI_USE_GCA=1", apply: (s) => void (s.env.GOOGLE_GENAI_USE_GCA = "1") },
  { label: "env GOOGLE_GEMINI_BASE_URL", apply: (s) => void (s.env.GOOGLE_GEMINI_BASE_URL = "http://127.0.0.1:9") },
  { label: "env GEMINI_CLI_USE_COMPUTE_ADC", apply: (s) => void (s.env.GEMINI_CLI_USE_COMPUTE_ADC = "true") },
  {
    label: "env GOOGLE_APPLICATION_CREDENTIALS",
    apply: (s) => {
      s.env.GOOGLE_APPLICATION_CREDENTIALS = join(s.layout.home, "sa.json");
      s.put(join(s.layout.home, "sa.json"), JSON.stringify({ type: "service_account", project_id: "p", private_key_id: "test", client_email: "a@p.iam.gserviceaccount.com" }));
    },
  },
  { label: "env GEMINI_CLI_TRUST_WORKSPACE", apply: (s) => void (s.env.GEMINI_CLI_TRUST_WORKSPACE = "true") },
  { label: "trustedFolders.json", apply: (s) => s.settings(join(s.layout.gemini, ".gemini", "trustedFolders.json"), { [s.layout.project]: "TRUST_FOLDER" }) },
  { label: "folderTrust off", apply: (s) => s.settings(join(s.layout.secure, "system-defaults.json"), { security: { folderTrust: { enabled: false } } }) },
  { label: "user selectedType gemini-api-key", apply: (s) => s.settings(userSettings(s), selected("gemini-api-key")) },
  { label: "user selectedType vertex-ai", apply: (s) => s.settings(userSettings(s), selected("vertex-ai")) },
  { label: "user selectedType oauth-personal", apply: (s) => s.settings(userSettings(s), selected("oauth-personal")) },
  { label: "user selectedType gateway", apply: (s) => s.settings(userSettings(s), selected("gateway")) },
  { label: "user selectedType from $GEMINI_AUTH", apply: (s) => (s.settings(userSettings(s), selected("$GEMINI_AUTH")), (s.env.GEMINI_AUTH = "gemini-api-key")) },
  { label: "user settings garbled", apply: (s) => s.put(userSettings(s), '{"security": {') },
  { label: "system selectedType gemini-api-key", apply: (s) => s.settings(join(s.layout.secure, "settings.json"), selected("gemini-api-key")) },
  { label: "system selectedType oauth-personal", apply: (s) => s.settings(join(s.layout.secure, "settings.json"), selected("oauth-personal")) },
  {
    label: "system settings in /tmp (insecure)",
    apply: (s) => {
      s.settings(join(s.layout.root, "etc", "settings.json"), selected("gemini-api-key"));
      s.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = join(s.layout.root, "etc", "settings.json");
    },
  },
  { label: "workspace selectedType gemini-api-key", apply: (s) => s.settings(join(s.layout.project, ".gemini", "settings.json"), selected("gemini-api-key")) },
  { label: "workspace selectedType vertex-ai", apply: (s) => s.settings(join(s.layout.project, ".gemini", "settings.json"), selected("vertex-ai")) },
  { label: "~/.gemini/.env key", apply: (s) => s.put(join(s.layout.gemini, ".gemini", ".env"), dotenv({ GEMINI_API_KEY: KEY })) },
  { label: "~/.env key", apply: (s) => s.put(join(s.layout.gemini, ".env"), dotenv({ GEMINI_API_KEY: KEY })) },
  { label: "project .env key", apply: (s) => s.put(join(s.layout.project, ".env"), dotenv({ GEMINI_API_KEY: KEY })) },
  { label: "project .env export key", apply: (s) => s.put(join(s.layout.project, ".env"), `export GEMINI_API_KEY='${KEY}' # comment\n`) },
  { label: "project .env only symbols", apply: (s) => s.put(join(s.layout.project, ".env"), 'GEMINI_API_KEY="!!!"\n') },
  { label: "project .env empty", apply: (s) => s.put(join(s.layout.project, ".env"), "") },
  { label: "project .gemini/.env key", apply: (s) => s.put(join(s.layout.project, ".gemini", ".env"), dotenv({ GEMINI_API_KEY: KEY })) },
  { label: "parent folder .env key", apply: (s) => s.put(join(s.layout.root, ".env"), dotenv({ GEMINI_API_KEY: KEY })) },
  { label: "project .env vertex", apply: (s) => s.put(join(s.layout.project, ".env"), dotenv(VERTEX_VARS)) },
  { label: "~/.env GCA", apply: (s) => s.put(join(s.layout.gemini, ".env"), dotenv({ GOOGLE_GENAI_USE_GCA: "true" })) },
  {
    label: "oauth_creds.json",
    apply: (s) => s.settings(join(s.layout.gemini, ".gemini", "oauth_creds.json"), { access_token: "ya29.test", refresh_token: "1//test", token_type: "Bearer", expiry_date: 1 }),
  },
  // What `gemini extensions install` leaves: Gemini's encrypted store, whatever it holds.
  { label: "gemini-credentials.json", apply: (s) => s.put(join(s.layout.gemini, ".gemini", "gemini-credentials.json"), `${"ab".repeat(12)}:${"cd".repeat(16)}:${"ef".repeat(40)}`) },
  {
    label: "gcloud ADC",
    apply: (s) => s.settings(join(s.layout.home, ".config", "gcloud", "application_default_credentials.json"), { type: "authorized_user", client_id: "c", client_secret: "s", refresh_token: "1//test" }),
  },
];

/** What only counts in a folder Gemini trusts. */
const TRUST_SENSITIVE = ["workspace selectedType gemini-api-key", "workspace selectedType vertex-ai", "~/.gemini/.env key", "project .gemini/.env key", "project .env vertex", "~/.env GCA"];
const TRUSTING = ["trustedFolders.json", "env GEMINI_CLI_TRUST_WORKSPACE"];

/**
 * Every ingredient alone; each trust-sensitive one in a trusted folder (trusted one way or the
 * other in turn; the workspace settings with a key, so that they decide); then seeded random
 * combinations of two or three, without repeating a set.
 */
function generateStates(): string[][] {
  const states: string[][] = [[]];
  for (const ingredient of INGREDIENTS) states.push([ingredient.label]);
  for (const [i, sensitive] of TRUST_SENSITIVE.entries()) {
    states.push([TRUSTING[i % TRUSTING.length]!, sensitive, ...(sensitive.startsWith("workspace") ? ["env GEMINI_API_KEY"] : [])]);
  }
  const fixed = states.length;
  const next = seededRandom(13);
  const seen = new Set(states.map((labels) => [...labels].sort().join("+")));
  while (states.length < fixed + 8) {
    const size = 2 + Math.floor(next() * 2);
    const pick = new Set<string>();
    while (pick.size < size) pick.add(INGREDIENTS[Math.floor(next() * INGREDIENTS.length)]!.label);
    const labels = INGREDIENTS.map((i) => i.label).filter((label) => pick.has(label));
    if (seen.has([...labels].sort().join("+"))) continue;
    seen.add([...labels].sort().join("+"));
    states.push(labels);
  }
  return states;
}

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
  const t = makeTempHome();
  // /run is root's and not writable by others, unlike /tmp, so system settings there count.
  const secure = mkdtempSync("/run/bosun-gemini-");
  secureFolders.push(secure);
  const state = new State({ root: t.root, home: t.home, project: join(t.home, "project"), gemini: t.home, secure });
  state.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = join(secure, "settings.json");
  const chosen = INGREDIENTS.filter((i) => labels.includes(i.label));
  if (chosen.some((i) => i.label === "GEMINI_CLI_HOME")) (state.layout as { gemini: string }).gemini = join(t.root, "gemini-home");
  for (const ingredient of [...chosen.filter((i) => i.early), ...chosen.filter((i) => !i.early)]) {
    ingredient.apply(state);
    state.labels.push(ingredient.label);
  }
  mkdirSync(state.layout.project, { recursive: true });
  mkdirSync(state.layout.gemini, { recursive: true });
  for (const [path, content] of state.files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return state;
}

/** bosun's verdict from the same environment and folder Gemini ran in. */
async function bosunVerdict(state: State): Promise<AuthStatus> {
  const env: Env = { HOME: state.layout.home, PATH: "/usr/bin:/bin", ...state.env };
  const ctx: DetectionContext = {
    env,
    home: state.layout.home,
    cwd: state.layout.project,
    dataDir: join(state.layout.root, "bosun-data"),
    files: nodeFileReader,
    probeSocket: async () => false,
  };
  return gemini.status.authStatus({}, ctx);
}

const outcomes = new Map<string, Outcome>();
const name = (labels: string[]) => (labels.length ? labels.join(" + ") : "nothing");

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
