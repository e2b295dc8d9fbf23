import { dirname, join, resolve } from "node:path";
import { notSignedIn, signedIn, unlessUnreadable } from "./kit/adapter.js";
import { presentText } from "./kit/detect/file-reader.js";
import { jsonHoldsSecret, parseJson } from "./kit/detect/secret-rules.js";
import { parseDotenv } from "./gemini-dotenv.js";
import { geminiDir, geminiHomeRoot, GeminiSettingsError, readGeminiSettings, type GeminiSettings } from "./gemini-settings.js";
import type { AuthStatus, DetectionContext } from "./kit/types.js";

/**
 * Gemini CLI's own sign-in check, run the way `gemini -p` runs it before it sends anything: the
 * auth type comes from `security.auth.selectedType` in its settings, else from the environment
 * (with the one `.env` file Gemini loads), and each type needs its own variables. Checked against
 * the real gemini 0.61.0 by test/real/gemini-signin.test.ts.
 */

/** The Gemini API key. */
export const GEMINI_API_KEY_ENV = "GEMINI_API_KEY";
/** A Google Cloud API key, which Gemini takes for Vertex AI only. */
export const GOOGLE_API_KEY_ENV = "GOOGLE_API_KEY";
/** The variables Gemini's sign-in reads a key from. */
export const GEMINI_ENV_KEYS = [GEMINI_API_KEY_ENV, GOOGLE_API_KEY_ENV] as const;

/** The variables a `.env` file may set in a folder Gemini does not trust (others are ignored there). */
const UNTRUSTED_DOTENV_VARS = new Set([...GEMINI_ENV_KEYS, "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"]);

/** The cached Google login, in Gemini's folder. */
export const GEMINI_OAUTH_FILE = "oauth_creds.json";
/** Gemini's encrypted credential store (its file keychain), in the same folder; bosun never opens it. */
export const GEMINI_ENCRYPTED_STORE_FILE = "gemini-credentials.json";

/** Where a variable Gemini sees came from: the environment, or the `.env` file it loaded. */
interface SeenVar {
  value: string;
  from: { kind: "env"; name: string } | { kind: "file"; path: string };
}

/** The environment Gemini ends up with: the process's, plus what its `.env` file adds. */
class GeminiEnv {
  constructor(
    private readonly ctx: DetectionContext,
    private readonly dotenv: { path: string; vars: Map<string, string> } | undefined,
  ) {}
  get(name: string): SeenVar | undefined {
    const own = this.ctx.env[name];
    if (own !== undefined) return { value: own, from: { kind: "env", name } };
    const loaded = this.dotenv?.vars.get(name);
    return loaded === undefined ? undefined : { value: loaded, from: { kind: "file", path: this.dotenv!.path } };
  }
  /** Gemini's truthiness: set and not empty. */
  set(name: string): SeenVar | undefined {
    const seen = this.get(name);
    return seen && seen.value !== "" ? seen : undefined;
  }
  is(name: string, value: string): SeenVar | undefined {
    const seen = this.get(name);
    return seen?.value === value ? seen : undefined;
  }
}

function exists(ctx: DetectionContext, path: string): boolean {
  return unlessUnreadable(() => ctx.files.stat(path)) !== undefined;
}

/**
 * The `.env` files Gemini may load, in its order: walking up from the working folder,
 * `.gemini/.env` (trusted folders only) then `.env` in each folder; at the top, `~/.gemini/.env`
 * (trusted only) then `~/.env`. `advanced.ignoreLocalEnv` skips plain `.env` files except the
 * home folder's. Nothing is checked here.
 */
export function geminiDotenvCandidates(ctx: Pick<DetectionContext, "env" | "home" | "cwd">, trusted: boolean, ignoreLocal: boolean): string[] {
  const home = geminiHomeRoot(ctx);
  const candidates: string[] = [];
  for (let dir = resolve(ctx.cwd); ; dir = dirname(dir)) {
    if (trusted) candidates.push(join(dir, ".gemini", ".env"));
    if (!ignoreLocal || dir === home) candidates.push(join(dir, ".env"));
    if (dirname(dir) === dir) break;
  }
  if (trusted) candidates.push(join(home, ".gemini", ".env"));
  candidates.push(join(home, ".env"));
  return candidates;
}

/** The one `.env` Gemini loads: the first candidate that exists, even when it sets nothing. */
export function findGeminiDotenv(ctx: DetectionContext, trusted: boolean, ignoreLocal: boolean): string | undefined {
  return geminiDotenvCandidates(ctx, trusted, ignoreLocal).find((path) => exists(ctx, path));
}

function loadDotenv(ctx: DetectionContext, settings: GeminiSettings): { path: string; vars: Map<string, string> } | undefined {
  const path = findGeminiDotenv(ctx, settings.trusted, settings.get(["advanced", "ignoreLocalEnv"]) === true);
  if (!path) return undefined;
  const text = unlessUnreadable(() => presentText(ctx.files, path)?.text) ?? "";
  const vars = new Map<string, string>();
  const fromProject = !path.includes(".gemini");
  for (const [name, value] of parseDotenv(text)) {
    if (!settings.trusted && !UNTRUSTED_DOTENV_VARS.has(name)) continue;
    if (fromProject && settings.excludedEnvVars.has(name)) continue;
    // In an untrusted folder Gemini keeps only these characters of a value.
    vars.set(name, settings.trusted ? value : value.replace(/[^a-zA-Z0-9\-_./]/g, ""));
  }
  return { path, vars };
}

/** How a passing check is reported: a variable by its name, a file by its path. */
function sourceStatus(seen: SeenVar): AuthStatus {
  return seen.from.kind === "env" ? signedIn("env", seen.from.name) : signedIn("external", seen.from.path);
}

/** The auth type Gemini would pick, and what picked it. */
interface Selection {
  type: string;
  by: AuthStatus;
}

const SELECTED_TYPE = ["security", "auth", "selectedType"];

function selectAuthType(settings: GeminiSettings, env: GeminiEnv): Selection | undefined {
  const selected = settings.get(SELECTED_TYPE);
  // Cloud Shell and GCE: Gemini turns these variables into a saved `compute-default-credentials` choice.
  if (!selected || selected === "cloud-shell") {
    const compute = env.is("CLOUD_SHELL", "true") ?? env.is("GEMINI_CLI_USE_COMPUTE_ADC", "true");
    if (compute) return { type: "compute-default-credentials", by: sourceStatus(compute) };
  }
  if (selected) return { type: String(selected), by: signedIn("external", settings.definedIn(SELECTED_TYPE)!.path) };
  const fromEnv: [string, SeenVar | undefined][] = [
    ["oauth-personal", env.is("GOOGLE_GENAI_USE_GCA", "true")],
    ["vertex-ai", env.is("GOOGLE_GENAI_USE_VERTEXAI", "true")],
    ["gateway", env.set("GOOGLE_GEMINI_BASE_URL")],
    ["gemini-api-key", env.set(GEMINI_API_KEY_ENV)],
  ];
  const hit = fromEnv.find(([, seen]) => seen);
  return hit ? { type: hit[0], by: sourceStatus(hit[1]!) } : undefined;
}

/**
 * A cached Google login: `oauth_creds.json` holding a token. Gemini checks it online before it
 * starts, so offline bosun can only say it is there. With `GEMINI_FORCE_ENCRYPTED_FILE_STORAGE`
 * the login is in Gemini's encrypted store instead, which bosun does not open.
 */
function oauthLogin(ctx: DetectionContext): AuthStatus {
  const file = join(geminiDir(ctx), GEMINI_OAUTH_FILE);
  if (ctx.env.GEMINI_FORCE_ENCRYPTED_FILE_STORAGE === "true") return notSignedIn(file);
  const found = unlessUnreadable(() => presentText(ctx.files, file));
  const parsed = found ? parseJson(found.text) : undefined;
  if (!found || !parsed || !jsonHoldsSecret(parsed.value, new Set(["refresh_token", "access_token"]))) return notSignedIn(file);
  return signedIn("external", found.shownPath);
}

/** Gemini CLI's verdict, as bosun reports it. */
export function geminiAuthStatus(ctx: DetectionContext): AuthStatus {
  let settings: GeminiSettings;
  try {
    settings = readGeminiSettings(ctx);
  } catch (error) {
    if (error instanceof GeminiSettingsError) return { connected: false, mode: "", authPath: "", error: error.message };
    throw error;
  }
  const env = new GeminiEnv(ctx, loadDotenv(ctx, settings));
  const refused = notSignedIn(geminiDir(ctx));
  const selection = selectAuthType(settings, env);
  if (!selection) return refused;
  const enforced = settings.get(["security", "auth", "enforcedType"]);
  if (enforced && enforced !== selection.type) return refused;
  switch (selection.type) {
    case "gemini-api-key": {
      // A key saved by Gemini's own dialog sits in its encrypted store, which bosun does not open.
      const key = env.set(GEMINI_API_KEY_ENV);
      return key ? sourceStatus(key) : refused;
    }
    case "vertex-ai": {
      const project = env.set("GOOGLE_CLOUD_PROJECT") && env.set("GOOGLE_CLOUD_LOCATION");
      return project || env.set(GOOGLE_API_KEY_ENV) ? selection.by : refused;
    }
    case "oauth-personal":
      return oauthLogin(ctx);
    case "compute-default-credentials":
      // The metadata server's token: there on Cloud Shell and GCE, not checkable offline.
      return selection.by;
    default:
      // "gateway" (GOOGLE_GEMINI_BASE_URL alone), "cloud-shell" outside Cloud Shell, or a typo.
      return refused;
  }
}
