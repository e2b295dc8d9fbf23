import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { resolvePaths } from "../../src/kernel/paths.js";
import { isInside } from "../../src/kernel/fs/path-inside.js";
import { stopOnReadError } from "../../src/runtimes/kit/adapter.js";
import { claude } from "../../src/runtimes/claude.js";
import { claudeSettingsFiles } from "../../src/runtimes/claude-signin.js";
import { codex } from "../../src/runtimes/codex.js";
import { allCredentialLocations, credentialLocationsFor, otherToolsCredentialLocations } from "../../src/runtimes/credential-locations.js";
import { codePointSorted } from "../../src/runtimes/kit/detect/env.js";
import { nodeFileReader } from "../../src/runtimes/kit/detect/node-file-reader.js";
import { gemini } from "../../src/runtimes/gemini.js";
import { grok } from "../../src/runtimes/grok.js";
import { findNpmGrokAuth } from "../../src/runtimes/grok-npm.js";
import { HERMES_ENV_KEYS } from "../../src/runtimes/hermes.js";
import { opencode, OPENCODE_ENV_KEYS } from "../../src/runtimes/opencode.js";
import { getRuntime, listRuntimes } from "../../src/runtimes/registry.js";
import { listSshPrivateKeys } from "../../src/runtimes/kit/ssh-private-keys.js";
import type { FileReader } from "../../src/runtimes/kit/detect/file-reader.js";
import type { AuthStatus, CredentialLocations, DetectionContext, StatusRuntime } from "../../src/runtimes/kit/types.js";
import { claudeStates, plantClaudeState } from "../fixtures/claude-signin-states.js";
import { codexStates, materialize } from "../fixtures/codex-signin-states.js";
import { makeDetection, readerFailingAt } from "../fixtures/detection.js";
import { buildGeminiState, generateStates, geminiStateContext, INGREDIENTS, stateName } from "../fixtures/gemini-signin-states.js";
import { grokStates } from "../fixtures/grok-signin-states.js";
import { opencodeStates } from "../fixtures/opencode-signin-states.js";
import { layOut } from "../fixtures/signin-matrix.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const locationsOf = (id: string, ctx: DetectionContext) => getRuntime(id).status.credentialLocations({}, ctx);
const sorted = (paths: string[]) => codePointSorted(paths);
const none: CredentialLocations = { files: [], folders: [], env: [] };

describe("each runtime's credential locations", () => {
  it("claude: the stored login and both global configs, where the variables put them and by default; the profile folder; its token, key and federation variables", () => {
    const t = makeDetection();
    const h = t.home;
    const env = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_FEDERATION_RULE_ID", "ANTHROPIC_ORGANIZATION_ID", "CLAUDE_CODE_OAUTH_TOKEN"];
    const defaults = [join(h, ".claude.json"), join(h, ".claude/.config.json"), join(h, ".claude/.credentials.json")];
    expect(locationsOf("claude", t.ctx)).toEqual({ files: sorted(defaults), folders: [join(h, ".config/anthropic")], env });
    const moved = makeDetection({ env: { CLAUDE_CONFIG_DIR: "cfg", CLAUDE_SECURESTORAGE_CONFIG_DIR: join(t.root, "secure"), ANTHROPIC_CONFIG_DIR: join(t.root, "ant") } });
    const m = moved.home;
    // A relative CLAUDE_CONFIG_DIR is relative to the working folder, as Claude Code takes it.
    const cfg = join(moved.ctx.cwd, "cfg");
    expect(locationsOf("claude", moved.ctx)).toEqual({
      files: sorted([join(t.root, "secure/.credentials.json"), join(cfg, ".config.json"), join(cfg, ".claude.json"), join(m, ".claude.json"), join(m, ".claude/.config.json"), join(m, ".claude/.credentials.json")]),
      folders: sorted([join(t.root, "ant"), join(m, ".config/anthropic")]),
      env,
    });
  });

  it("codex: auth.json in CODEX_HOME and ~/.codex, bosun's own Codex login, CODEX_API_KEY", () => {
    const t = makeDetection({ env: { CODEX_HOME: join("..", "codex-home") } });
    expect(locationsOf("codex", t.ctx)).toEqual({
      files: sorted([resolve(t.ctx.cwd, "../codex-home/auth.json"), join(t.home, ".codex/auth.json"), join(t.ctx.dataDir, "runtimes/codex/auth.json")]),
      folders: [],
      env: ["CODEX_API_KEY"],
    });
    // CODEX_HOME at the default folder: each path once.
    const same = makeDetection();
    same.ctx.env.CODEX_HOME = join(same.home, ".codex");
    expect(locationsOf("codex", same.ctx).files).toEqual(sorted([join(same.home, ".codex/auth.json"), join(same.ctx.dataDir, "runtimes/codex/auth.json")]));
  });

  it("cursor: its six token files in $CURSOR_HOME (~ expanded) and ~/.cursor, and both key variables", () => {
    const t = makeDetection({ env: { CURSOR_HOME: "~/cur " } });
    const names = ["auth.json", "credentials.json", "token.json", "agent/auth.json", "agent/credentials.json", "agent/token.json"];
    const files = [join(t.home, "cur"), join(t.home, ".cursor")].flatMap((dir) => names.map((name) => join(dir, name)));
    expect(locationsOf("cursor", t.ctx)).toEqual({ files: sorted(files), folders: [], env: ["API_KEY_CURSOR", "CURSOR_API_KEY"] });
  });

  it("gemini: its login and encrypted store in $GEMINI_CLI_HOME/.gemini and ~/.gemini, every .env it may load, Google's ADC files, its key variables", () => {
    const t = makeDetection({ env: { GEMINI_CLI_HOME: "/g", GOOGLE_APPLICATION_CREDENTIALS: "keys/sa.json" } });
    t.ctx.cwd = join(t.home, "project", "sub");
    const walk: string[] = [];
    for (let dir = t.ctx.cwd; ; dir = dirname(dir)) {
      walk.push(join(dir, ".gemini/.env"), join(dir, ".env"));
      if (dirname(dir) === dir) break;
    }
    const own = ["/g/.gemini", join(t.home, ".gemini")].flatMap((dir) => [join(dir, "oauth_creds.json"), join(dir, "gemini-credentials.json"), join(dir, ".env")]);
    const adc = [join(t.home, ".config/gcloud/application_default_credentials.json"), join(t.ctx.cwd, "keys/sa.json")];
    expect(locationsOf("gemini", t.ctx)).toEqual({ files: sorted([...own, "/g/.env", ...walk, ...adc]), folders: [], env: ["GEMINI_API_KEY", "GOOGLE_API_KEY"] });
  });

  it("grok: both CLIs named grok — Grok Build's files and account folder in $GROK_HOME and ~/.grok, the npm grok's settings, .env and vault", () => {
    const t = makeDetection({ env: { GROK_HOME: "/srv/gk" } });
    const homes = ["/srv/gk", join(t.home, ".grok")];
    expect(locationsOf("grok", t.ctx)).toEqual({
      files: sorted([...homes.flatMap((home) => [join(home, "config.toml"), join(home, "auth.json")]), join(t.home, ".grok/user-settings.json"), join(t.ctx.cwd, ".env"), join(t.ctx.cwd, ".env.vault")]),
      folders: sorted(homes.map((home) => join(home, "auth"))),
      env: ["API_KEY_XAI", "DOTENV_KEY", "GROK_API_KEY", "XAI_API_KEY"],
    });
  });

  it("hermes: .env and auth.json in $HERMES_HOME and ~/.hermes, and every provider key it reads", () => {
    const t = makeDetection({ env: { HERMES_HOME: "/srv/hermes" } });
    expect(locationsOf("hermes", t.ctx)).toEqual({
      files: sorted(["/srv/hermes/.env", "/srv/hermes/auth.json", join(t.home, ".hermes/.env"), join(t.home, ".hermes/auth.json")]),
      folders: [],
      env: codePointSorted(HERMES_ENV_KEYS),
    });
    expect(locationsOf("hermes", t.ctx).env).toHaveLength(31);
  });

  it("opencode: auth.json under XDG_DATA_HOME (relative to the working folder, as OpenCode takes it) and by default, its catalogue's variables and OPENCODE_AUTH_CONTENT", () => {
    const t = makeDetection({ env: { XDG_DATA_HOME: "xdg" } });
    expect(locationsOf("opencode", t.ctx)).toEqual({
      files: sorted([join(t.ctx.cwd, "xdg/opencode/auth.json"), join(t.home, ".local/share/opencode/auth.json")]),
      folders: [],
      env: codePointSorted([...OPENCODE_ENV_KEYS, "OPENCODE_AUTH_CONTENT"]),
    });
  });

  it("a0: nothing, whatever its host (the login lives in the Agent Zero instance)", () => {
    const t = makeDetection({ env: { AGENT_ZERO_HOST: "http://user:pw@a0.example:8080" } });
    expect(getRuntime("a0").status.credentialLocations({ host: "http://a0.example" }, t.ctx)).toEqual(none);
  });
});

describe("other tools' credential files", () => {
  it("are listed at their default places", () => {
    const t = makeDetection();
    const h = t.home;
    expect(otherToolsCredentialLocations(t.ctx)).toEqual({
      files: sorted([
        ".netrc", ".git-credentials", ".config/git/credentials", ".aws/credentials", ".config/gh/hosts.yml", ".docker/config.json", ".kube/config", ".npmrc", ".pypirc",
        ".config/gcloud/credentials.db", ".config/gcloud/access_tokens.db", ".config/gcloud/application_default_credentials.json",
      ].map((path) => join(h, path))),
      folders: sorted([".aws/sso/cache", ".aws/cli/cache", ".config/gcloud/legacy_credentials"].map((path) => join(h, path))),
      env: [],
    });
  });

  it("follow each tool's own variable, and keep the default place too", () => {
    const t = makeDetection({
      env: { XDG_CONFIG_HOME: "/xdg", AWS_SHARED_CREDENTIALS_FILE: "~/aws-creds", GH_CONFIG_DIR: "/ghc", DOCKER_CONFIG: "/dock", KUBECONFIG: "/k/one:~/k2::", npm_config_userconfig: "/n/rc", CLOUDSDK_CONFIG: "/gc" },
    });
    const { files, folders } = otherToolsCredentialLocations(t.ctx);
    for (const path of ["/xdg/git/credentials", join(t.home, "aws-creds"), "/ghc/hosts.yml", "/xdg/gh/hosts.yml", "/dock/config.json", "/k/one", join(t.home, "k2"), "/n/rc", "/gc/credentials.db", "/gc/access_tokens.db", "/gc/application_default_credentials.json"]) {
      expect(files, path).toContain(path);
    }
    for (const path of [".config/git/credentials", ".aws/credentials", ".config/gh/hosts.yml", ".docker/config.json", ".kube/config", ".npmrc", ".config/gcloud/credentials.db"]) expect(files).toContain(join(t.home, path));
    expect(folders).toContain("/gc/legacy_credentials");
    expect(folders).toContain(join(t.home, ".config/gcloud/legacy_credentials"));
  });
});

describe("allCredentialLocations", () => {
  it("is every runtime's list and the other tools', each kind sorted and without repeats", () => {
    const t = makeDetection({ env: { CODEX_HOME: "/srv/codex" } });
    const all = allCredentialLocations({ codex: { binary: "codex" } }, t.ctx);
    for (const kind of ["files", "folders", "env"] as const) {
      expect(all[kind]).toEqual(codePointSorted(all[kind]));
      const expected = new Set([...listRuntimes().flatMap((runtime) => runtime.status.credentialLocations({}, t.ctx)[kind]), ...otherToolsCredentialLocations(t.ctx)[kind]]);
      expect(new Set(all[kind])).toEqual(expected);
    }
    const h = t.home;
    for (const path of [".claude/.credentials.json", ".claude.json", ".codex/auth.json", ".gemini/oauth_creds.json", ".gemini/gemini-credentials.json", ".config/gcloud/application_default_credentials.json", ".local/share/opencode/auth.json", ".grok/user-settings.json", ".netrc"]) {
      expect(all.files).toContain(join(h, path));
    }
    expect(all.files).toContain("/srv/codex/auth.json");
    // Every runtime but a0 (whose login is not on this machine) names some file and some variable.
    for (const runtime of listRuntimes().filter((candidate) => candidate.id !== "a0")) {
      const own = runtime.status.credentialLocations({}, t.ctx);
      expect(own.files.length, runtime.id).toBeGreaterThan(0);
      expect(own.env.length, runtime.id).toBeGreaterThan(0);
    }
  });

  it("credentialLocationsFor a started bosun: the agents' environment and bosun's own (with its .env), and the SSH private keys found", () => {
    const t = makeTempHome();
    mkdirSync(join(t.home, ".ssh"));
    writeFileSync(join(t.home, ".ssh/id_ed25519"), "key");
    const paths = resolvePaths(t.env, t.root);
    const env: Env = { ...t.env, CODEX_HOME: join(t.root, "from-dotenv") };
    const agentEnv: Env = { ...t.env, CODEX_HOME: join(t.root, "from-shell") };
    const found = credentialLocationsFor({ env, agentEnv, paths, config: null }, t.root);
    expect(found.files).toEqual(expect.arrayContaining([join(t.root, "from-dotenv/auth.json"), join(t.root, "from-shell/auth.json"), join(t.home, ".ssh/id_ed25519")]));
    expect(found.files).toEqual(codePointSorted(found.files));
  });
});

describe("listSshPrivateKeys", () => {
  it("lists the id_* files of ~/.ssh that are not public keys (symlinks followed), nothing else", () => {
    const t = makeTempHome();
    const ssh = join(t.home, ".ssh");
    mkdirSync(join(ssh, "id_folder"), { recursive: true });
    for (const name of ["id_rsa", "id_rsa.pub", "id_ed25519", "id_work", "known_hosts", "config", "authorized_keys"]) writeFileSync(join(ssh, name), "x");
    symlinkSync(join(ssh, "id_rsa"), join(ssh, "id_link"));
    symlinkSync(join(ssh, "nowhere"), join(ssh, "id_broken"));
    expect(listSshPrivateKeys(t.home)).toEqual(["id_ed25519", "id_link", "id_rsa", "id_work"].map((name) => join(ssh, name)));
  });

  it("is empty without ~/.ssh, and an unreadable one is a CredentialReadError", () => {
    const t = makeTempHome();
    expect(listSshPrivateKeys(t.home)).toEqual([]);
    mkdirSync(join(t.home, ".ssh"));
    expect(() => listSshPrivateKeys(t.home, readerFailingAt((path) => path.endsWith(".ssh")))).toThrow("permission denied (EACCES)");
  });
});

/**
 * The sandbox's promise, checked on every credential state the real-CLI sign-in matrices use:
 * with the runtime's files and folders masked and its variables dropped, an agent bosun saw
 * signed in is no longer signed in with a credential. The matrices prove bosun's verdict is the
 * real CLI's; here bosun's verdict stands in for it (the CLIs are not run).
 */
interface MatrixState {
  name: string;
  /** Lays the state out afresh (a temp home of its own) and gives the context bosun detects in. */
  layOut(): DetectionContext;
}

interface Matrix {
  runtime: StatusRuntime;
  states: MatrixState[];
  verdict(ctx: DetectionContext): Promise<AuthStatus>;
  /**
   * A sign-in that holds no secret, so masking cannot end it: a switch to a cloud's own login
   * (protected as that cloud's files), a settings file that names a command or an auth type.
   */
  holdsNoSecret?(auth: AuthStatus, ctx: DetectionContext): boolean;
}

const probeSocket = async () => false;

function ingredientPairs(): string[][] {
  const labels = INGREDIENTS.map((ingredient) => ingredient.label);
  return labels.flatMap((first, i) => labels.slice(i + 1).map((second) => [first, second]));
}

const MATRICES: Matrix[] = [
  {
    runtime: claude,
    // The generator's singles and more of its seeded mixes than the real test runs (they cost nothing here).
    states: claudeStates(40).map((state) => ({
      name: state.name,
      layOut: () => {
        const { home } = makeTempHome();
        const env = plantClaudeState(state, home);
        return { env: { HOME: home, PATH: "/usr/bin:/bin", ...env }, home, cwd: join(home, "proj"), dataDir: join(home, ".bosun-data"), files: nodeFileReader, probeSocket };
      },
    })),
    verdict: (ctx) => claude.status.authStatus({}, ctx),
    // Bedrock, Vertex and the like: their own login; apiKeyHelper: a command that prints a key.
    holdsNoSecret: (auth, ctx) =>
      (auth.mode === "env" && /^CLAUDE_CODE_USE_(?!GATEWAY)/.test(auth.authPath)) || (auth.mode === "external" && claudeSettingsFiles(ctx).includes(auth.authPath)),
  },
  {
    runtime: codex,
    // "written by codex login --with-api-key" is filled in by the real test only; here it is an empty auth.json.
    states: codexStates().map((state) => ({
      name: state.name,
      layOut: () => {
        const t = makeTempHome();
        const s = materialize(state, t.root, t.home, t.paths.data);
        return { env: { HOME: s.home, ...s.env }, home: s.home, cwd: s.cwd, dataDir: s.dataDir, files: nodeFileReader, probeSocket };
      },
    })),
    verdict: (ctx) => codex.status.authStatus({}, ctx),
  },
  {
    runtime: gemini,
    // The matrix, and every pair of its ingredients (its random mixes never pair a Google login with its
    // cached token). System settings in a temp folder are not trusted (others may write there).
    states: [...generateStates(), ...ingredientPairs()].map((labels) => ({ name: stateName(labels), layOut: () => geminiStateContext(buildGeminiState(labels, makeTempHome().root)) })),
    verdict: (ctx) => gemini.status.authStatus({}, ctx),
    // Vertex AI by project and location, or Compute Engine: Google's own credentials (ADC, metadata server) decide.
    holdsNoSecret: (auth) =>
      (auth.mode === "env" && ["GOOGLE_GENAI_USE_VERTEXAI", "CLOUD_SHELL", "GEMINI_CLI_USE_COMPUTE_ADC"].includes(auth.authPath)) || (auth.mode === "external" && auth.authPath.endsWith("settings.json")),
  },
  {
    runtime: grok,
    states: grokStates().map((state) => ({ name: state.name, layOut: () => layOut(state).ctx })),
    // The matrix is the npm grok's; telling the two CLIs apart needs its installed binary.
    verdict: (ctx) => stopOnReadError(() => findNpmGrokAuth(ctx)),
  },
  {
    runtime: opencode,
    states: opencodeStates().map((state) => ({ name: state.name, layOut: () => layOut(state).ctx })),
    verdict: (ctx) => opencode.status.authStatus({}, ctx),
  },
];

function masks(locations: CredentialLocations): (path: string) => boolean {
  return (path) => locations.files.includes(path) || locations.folders.some((folder) => isInside(path, folder));
}

/** What a masked location looks like to a process in the sandbox. */
const MASKS: Record<string, (ctx: DetectionContext, locations: CredentialLocations) => FileReader> = {
  // Readable names, unreadable content (a permission denied on open). Tests run as root, whom
  // file modes do not stop, so the reader answers as the kernel would.
  "unreadable content": (_ctx, locations) => readerFailingAt(masks(locations), "read"),
  "nothing can be inspected": (_ctx, locations) => readerFailingAt(masks(locations), "stat"),
  // Really gone: every listed file and folder inside the state's temp root is deleted.
  removed: (ctx, locations) => {
    const root = dirname(ctx.home);
    for (const path of [...locations.files, ...locations.folders]) if (isInside(path, root)) rmSync(path, { recursive: true, force: true });
    return nodeFileReader;
  },
};

function masked(ctx: DetectionContext, locations: CredentialLocations, mask: string): DetectionContext {
  const env = Object.fromEntries(Object.entries(ctx.env).filter(([name]) => !locations.env.includes(name)));
  return { ...ctx, env, files: MASKS[mask]!(ctx, locations) };
}

describe("the sign-in matrices' credential states, masked", () => {
  it.each(MATRICES.map((matrix) => [matrix.runtime.id, matrix] as const))("%s: every file and variable that signs it in is listed, so masking them signs it out", async (_id, matrix) => {
    const problems: string[] = [];
    let signedIn = 0;
    let signedOut = 0;
    for (const state of matrix.states) {
      const ctx = state.layOut();
      const before = await matrix.verdict(ctx);
      if (!before.connected) continue;
      signedIn++;
      for (const mask of Object.keys(MASKS)) {
        const fresh = mask === "removed" ? state.layOut() : ctx;
        // The list is made from the state's own environment and folders, as the sandbox makes it.
        const after = await matrix.verdict(masked(fresh, matrix.runtime.status.credentialLocations({}, fresh), mask));
        if (after.connected && !matrix.holdsNoSecret?.(after, fresh)) problems.push(`${state.name} (${mask}): still signed in by ${after.authPath}`);
        if (!after.connected && mask === "removed") signedOut++;
      }
    }
    expect(problems).toEqual([]);
    // Not vacuous: the matrix signs the agent in many ways, and masking is what signs it out.
    expect(signedOut).toBeGreaterThanOrEqual(8);
  }, 120_000);
});
