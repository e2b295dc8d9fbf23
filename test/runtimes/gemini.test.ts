import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseDotenv } from "../../src/runtimes/gemini-dotenv.js";
import { gemini, geminiHome } from "../../src/runtimes/gemini.js";
import { runCli } from "../fixtures/cli.js";
import { makeDetection, readerFailingAt, type DetectionFixture } from "../fixtures/detection.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const status = gemini.status;
const auth = (t: DetectionFixture) => status.authStatus({}, t.ctx);
const selected = (type: string) => JSON.stringify({ security: { auth: { selectedType: type } } });

/** A detection fixture whose working folder is `~/project` (Gemini's workspace), not HOME. */
function inProject(env: Record<string, string> = {}): DetectionFixture & { project: string } {
  const t = makeDetection({ env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: "/nonexistent/gemini/settings.json", ...env } });
  const project = join(t.home, "project");
  mkdirSync(project);
  t.ctx.cwd = project;
  return { ...t, project };
}

const secure: string[] = [];
afterEach(() => {
  for (const dir of secure.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("gemini (Gemini CLI): the auth type", () => {
  it("takes GEMINI_API_KEY from the environment (by name)", async () => {
    expect(await auth(inProject({ GEMINI_API_KEY: "k" }))).toEqual({ connected: true, mode: "env", authPath: "GEMINI_API_KEY" });
  });

  it("does not count GOOGLE_API_KEY, an ADC file, a service account or Gemini's encrypted store on their own", async () => {
    const t = inProject({ GOOGLE_API_KEY: "g", GOOGLE_APPLICATION_CREDENTIALS: "~/sa.json" });
    t.put("sa.json", "{}");
    t.put(".config/gcloud/application_default_credentials.json", "{}");
    t.put(".gemini/gemini-credentials.json", "aa:bb:cc");
    expect(await auth(t)).toEqual({ connected: false, mode: "", authPath: join(t.home, ".gemini") });
  });

  it("Vertex AI needs a project and location, or GOOGLE_API_KEY", async () => {
    expect((await auth(inProject({ GOOGLE_GENAI_USE_VERTEXAI: "true" }))).connected).toBe(false);
    expect((await auth(inProject({ GOOGLE_GENAI_USE_VERTEXAI: "true", GOOGLE_CLOUD_PROJECT: "p" }))).connected).toBe(false);
    expect(await auth(inProject({ GOOGLE_GENAI_USE_VERTEXAI: "true", GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" }))).toEqual({ connected: true, mode: "env", authPath: "GOOGLE_GENAI_USE_VERTEXAI" });
    expect((await auth(inProject({ GOOGLE_GENAI_USE_VERTEXAI: "true", GOOGLE_API_KEY: "g" }))).connected).toBe(true);
    // Only the exact value "true" selects it.
    expect((await auth(inProject({ GOOGLE_GENAI_USE_VERTEXAI: "1", GOOGLE_API_KEY: "g" }))).connected).toBe(false);
  });

  it("GOOGLE_GEMINI_BASE_URL alone picks the gateway type, which headless Gemini refuses", async () => {
    expect((await auth(inProject({ GOOGLE_GEMINI_BASE_URL: "http://x", GEMINI_API_KEY: "k" }))).connected).toBe(false);
    const t = inProject({ GOOGLE_GEMINI_BASE_URL: "http://x", GEMINI_API_KEY: "k" });
    t.put(".gemini/settings.json", selected("gemini-api-key"));
    expect(await auth(t)).toEqual({ connected: true, mode: "env", authPath: "GEMINI_API_KEY" });
  });

  it("a selectedType in the user settings decides, and needs its own variables", async () => {
    const t = inProject({ GEMINI_API_KEY: "k" });
    t.put(".gemini/settings.json", selected("vertex-ai"));
    expect((await auth(t)).connected).toBe(false);
    const settings = t.put(".gemini/settings.json", `// mine\n${selected("vertex-ai")}`);
    t.ctx.env.GOOGLE_API_KEY = "g";
    expect(await auth(t)).toEqual({ connected: true, mode: "external", authPath: settings });
    t.put(".gemini/settings.json", selected("gateway"));
    expect((await auth(t)).connected).toBe(false);
    t.put(".gemini/settings.json", selected("$MY_AUTH"));
    t.ctx.env.MY_AUTH = "gemini-api-key";
    expect(await auth(t)).toEqual({ connected: true, mode: "env", authPath: "GEMINI_API_KEY" });
  });

  it("enforcedType other than the chosen type is refused", async () => {
    const t = inProject({ GEMINI_API_KEY: "k" });
    t.put(".gemini/settings.json", JSON.stringify({ security: { auth: { enforcedType: "vertex-ai" } } }));
    expect((await auth(t)).connected).toBe(false);
  });

  it("a settings file Gemini cannot parse stops it: an error naming the file, never its content", async () => {
    const t = inProject({ GEMINI_API_KEY: "k" });
    const file = t.put(".gemini/settings.json", '{"apiKey": "secret-value-123",');
    const result = await auth(t);
    expect(result).toMatchObject({ connected: false, mode: "", authPath: "" });
    expect(result.error).toContain(file);
    expect(result.error).not.toContain("secret-value");
    t.put(".gemini/settings.json", "[1]");
    expect((await auth(t)).error).toContain("not a JSON object");
  });

  it("GEMINI_CLI_HOME names the folder that holds .gemini", async () => {
    const t = inProject({ GEMINI_CLI_HOME: "~/ghome", GEMINI_API_KEY: "k" });
    expect(geminiHome(t.ctx)).toBe(join(t.home, "ghome", ".gemini"));
    t.put(".gemini/settings.json", selected("vertex-ai"));
    expect((await auth(t)).connected).toBe(true);
    t.put("ghome/.gemini/settings.json", selected("vertex-ai"));
    expect((await auth(t)).connected).toBe(false);
  });
});

describe("gemini: system and workspace settings", () => {
  function secureFolder(): string {
    const dir = mkdtempSync("/run/bosun-gemini-unit-");
    secure.push(dir);
    return dir;
  }

  it("system settings win over the user's, but only from a root-owned folder others cannot write", async () => {
    const dir = secureFolder();
    const t = inProject({ GEMINI_API_KEY: "k", GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(dir, "settings.json") });
    t.put(".gemini/settings.json", selected("gemini-api-key"));
    t.put(join(dir, "settings.json"), selected("vertex-ai"));
    expect((await auth(t)).connected).toBe(false);
    chmodSync(dir, 0o777);
    expect((await auth(t)).connected).toBe(true);
    // Under /tmp (writable by all) a system file is skipped, as Gemini skips it.
    const insecure = inProject({ GEMINI_API_KEY: "k" });
    insecure.ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = insecure.put(join(insecure.root, "etc", "settings.json"), selected("vertex-ai"));
    expect((await auth(insecure)).connected).toBe(true);
  });

  it("workspace settings count only in a trusted folder", async () => {
    const t = inProject({ GEMINI_API_KEY: "k" });
    t.put(join(t.project, ".gemini/settings.json"), selected("vertex-ai"));
    expect((await auth(t)).connected).toBe(true);
    t.put(".gemini/trustedFolders.json", JSON.stringify({ [t.project]: "TRUST_FOLDER" }));
    expect((await auth(t)).connected).toBe(false);
    t.put(".gemini/trustedFolders.json", JSON.stringify({ [join(t.project, "child")]: "TRUST_PARENT", [t.home]: "DO_NOT_TRUST" }));
    expect((await auth(t)).connected).toBe(false);
    t.put(".gemini/trustedFolders.json", JSON.stringify({ [t.project]: "DO_NOT_TRUST", [t.home]: "TRUST_FOLDER" }));
    expect((await auth(t)).connected).toBe(true);
    t.ctx.env.GEMINI_CLI_TRUST_WORKSPACE = "true";
    expect((await auth(t)).connected).toBe(false);
  });
});

describe("gemini: the one .env file Gemini loads", () => {
  it("walks up from the working folder; ~/.gemini/.env only in a trusted folder", async () => {
    const t = inProject();
    const geminiEnv = t.put(".gemini/.env", "GEMINI_API_KEY=k\n");
    expect((await auth(t)).connected).toBe(false);
    t.ctx.env.GEMINI_CLI_TRUST_WORKSPACE = "true";
    expect(await auth(t)).toEqual({ connected: true, mode: "external", authPath: geminiEnv });
    // In each folder .gemini/.env comes before .env.
    t.put(".env", "GEMINI_API_KEY=k\n");
    expect((await auth(t)).authPath).toBe(geminiEnv);
    const projectEnv = t.put(join(t.project, ".gemini/.env"), "GEMINI_API_KEY=k\n");
    expect((await auth(t)).authPath).toBe(projectEnv);
  });

  it("the first file found wins, even one that sets nothing", async () => {
    const t = inProject();
    t.put(".env", "GEMINI_API_KEY=k\n");
    t.put(join(t.project, ".env"), "");
    expect((await auth(t)).connected).toBe(false);
  });

  it("in an untrusted folder only key variables count, stripped to plain characters", async () => {
    const t = inProject();
    t.put(".env", "GOOGLE_GENAI_USE_VERTEXAI=true\nGOOGLE_API_KEY=g\n");
    expect((await auth(t)).connected).toBe(false);
    t.ctx.env.GEMINI_CLI_TRUST_WORKSPACE = "true";
    expect((await auth(t)).connected).toBe(true);
    const u = inProject();
    u.put(".env", 'GEMINI_API_KEY="!!!"\n');
    expect((await auth(u)).connected).toBe(false);
  });

  it("a variable in the environment, even empty, wins over the file", async () => {
    const t = inProject({ GEMINI_API_KEY: "" });
    t.put(".env", "GEMINI_API_KEY=k\n");
    expect((await auth(t)).connected).toBe(false);
  });

  it("honours advanced.ignoreLocalEnv and advanced.excludedEnvVars", async () => {
    const t = inProject();
    t.put(join(t.project, ".env"), "GEMINI_API_KEY=k\n");
    expect((await auth(t)).connected).toBe(true);
    t.put(".gemini/settings.json", JSON.stringify({ advanced: { excludedEnvVars: ["GEMINI_API_KEY"] } }));
    expect((await auth(t)).connected).toBe(false);
    t.put(".gemini/settings.json", JSON.stringify({ advanced: { ignoreLocalEnv: true } }));
    expect((await auth(t)).connected).toBe(false);
    const home = t.put(".env", "GEMINI_API_KEY=k\n");
    expect((await auth(t)).authPath).toBe(home);
  });

  it("reads the dotenv grammar Gemini uses", () => {
    const parsed = parseDotenv('export A=1\nB: two\nC="x\\ny" # c\nD=\'q\'\nE=plain # note\nF="multi\nline"\n# G=no\nH=\n');
    expect(Object.fromEntries(parsed)).toEqual({ A: "1", B: "two", C: "x\ny", D: "q", E: "plain", F: "multi\nline", H: "" });
    expect(parseDotenv("A=1\r\nA=2\r\n").get("A")).toBe("2");
  });
});

describe("gemini: Google login and Compute Engine", () => {
  it("a Google login counts by its cached token file (Gemini checks it online)", async () => {
    const t = inProject({ GOOGLE_GENAI_USE_GCA: "true" });
    const file = join(t.home, ".gemini", "oauth_creds.json");
    expect(await auth(t)).toEqual({ connected: false, mode: "", authPath: file });
    t.put(".gemini/oauth_creds.json", "not json");
    expect((await auth(t)).connected).toBe(false);
    t.put(".gemini/oauth_creds.json", JSON.stringify({ refresh_token: "r" }));
    expect(await auth(t)).toEqual({ connected: true, mode: "external", authPath: file });
    t.ctx.env.GEMINI_FORCE_ENCRYPTED_FILE_STORAGE = "true";
    expect((await auth(t)).connected).toBe(false);
    // Without a Google choice the file alone signs nothing in.
    const alone = inProject();
    alone.put(".gemini/oauth_creds.json", JSON.stringify({ refresh_token: "r" }));
    expect((await auth(alone)).connected).toBe(false);
  });

  it("GEMINI_CLI_USE_COMPUTE_ADC and CLOUD_SHELL choose the metadata server's credentials", async () => {
    expect(await auth(inProject({ GEMINI_CLI_USE_COMPUTE_ADC: "true" }))).toEqual({ connected: true, mode: "env", authPath: "GEMINI_CLI_USE_COMPUTE_ADC" });
    expect((await auth(inProject({ CLOUD_SHELL: "true" }))).connected).toBe(true);
    const t = inProject({ CLOUD_SHELL: "true" });
    t.put(".gemini/settings.json", selected("gemini-api-key"));
    expect((await auth(t)).connected).toBe(false);
  });

  it("treats stores it cannot read as not there, without an error", async () => {
    const t = makeDetection({ env: { GOOGLE_GENAI_USE_GCA: "true" }, files: readerFailingAt((path) => path.endsWith("oauth_creds.json") || path.endsWith(".env")) });
    t.put(".gemini/oauth_creds.json", JSON.stringify({ refresh_token: "r" }));
    t.put(".env", "GEMINI_API_KEY=x");
    expect(await auth(t)).toEqual({ connected: false, mode: "", authPath: join(t.home, ".gemini", "oauth_creds.json") });
  });
});

describe("gemini: disconnect", () => {
  it("removes oauth_creds.json while it is the login Gemini uses", async () => {
    const t = inProject({ GOOGLE_GENAI_USE_GCA: "true" });
    t.put(".gemini/oauth_creds.json", JSON.stringify({ refresh_token: "r" }));
    expect(await status.planDisconnect!({}, t.ctx)).toEqual({ action: "remove-file", mode: "external", path: join(t.home, ".gemini", "oauth_creds.json") });
  });

  it("says why not for a variable, a .env file, Vertex AI, or nothing", async () => {
    expect(await status.planDisconnect!({}, inProject({ GEMINI_API_KEY: "k" }).ctx)).toEqual({
      action: "none",
      reason: "Gemini CLI signs in with the GEMINI_API_KEY variable, which bosun does not remove; unset or edit it yourself",
    });
    const dotenv = inProject();
    const file = dotenv.put(".env", "GEMINI_API_KEY=k\n");
    expect(await status.planDisconnect!({}, dotenv.ctx)).toMatchObject({ action: "none", reason: expect.stringContaining(file) });
    expect(await status.planDisconnect!({}, inProject().ctx)).toEqual({ action: "none", reason: "Gemini CLI is not signed in" });
    expect(status.supportsDeviceLogin()).toBe(false);
  });

  it("names the real CLI its rules were checked against", () => {
    expect(gemini.signInVerifiedAgainst).toMatch(/^gemini 0\.61\.0 /);
  });
});

describe("gemini: bosun agents disconnect gemini", () => {
  it("deletes the cached Google login, and refuses a key in the environment naming it", async () => {
    const t = makeTempHome();
    const env = { ...t.env, GOOGLE_GENAI_USE_GCA: "true", GEMINI_CLI_SYSTEM_SETTINGS_PATH: "/nonexistent/settings.json" };
    const file = t.write(join(t.home, ".gemini", "oauth_creds.json"), JSON.stringify({ refresh_token: "r" }));
    const done = await runCli(["agents", "disconnect", "gemini", "--yes", "--json"], env, t.home);
    expect(JSON.parse(done.stdout)).toEqual({ agent: "gemini", removed: true, mode: "external", authPath: file });
    expect(existsSync(file)).toBe(false);
    const keyed = await runCli(["agents", "disconnect", "gemini", "--yes"], { ...env, GOOGLE_GENAI_USE_GCA: undefined, GEMINI_API_KEY: "k" }, t.home);
    expect(keyed).toEqual({
      code: 1,
      stdout: "",
      stderr: "bosun: Gemini CLI: nothing to disconnect (Gemini CLI signs in with the GEMINI_API_KEY variable, which bosun does not remove; unset or edit it yourself)\n",
    });
  });
});
