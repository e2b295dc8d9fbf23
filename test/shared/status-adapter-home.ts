// The temp homes, places and plantings of the shared status-adapter suite (status-adapter.ts).
// Everything here is derived from what a runtime declares (`credentialLocations`) and from what its
// detection is seen to inspect through the real file reader, so a new runtime needs no entry here.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { Env } from "../../src/kernel/paths.js";
import { reportRuntime, type AgentReport } from "../../src/runtimes/collect-status.js";
import type { FileReader } from "../../src/runtimes/kit/detect/file-reader.js";
import { MAX_CREDENTIAL_BYTES } from "../../src/runtimes/kit/detect/file-reader.js";
import { nodeFileReader } from "../../src/runtimes/kit/detect/node-file-reader.js";
import { probeTcp } from "../../src/runtimes/kit/machine.js";
import type { AuthStatus, CredentialLocations, DetectionContext, DisconnectPlan, StatusRuntime, RuntimeVariant } from "../../src/runtimes/kit/types.js";
import { seededRandom } from "../fixtures/random.js";
import { makeFifo, makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** The real reader, noting every path detection inspects and the largest read it asks for. */
export interface RecordingReader extends FileReader {
  inspected: Set<string>;
  /** Folders it listed. */
  listed: Set<string>;
  maxBytes: number[];
}

export function recordingReader(): RecordingReader {
  const inspected = new Set<string>();
  const listed = new Set<string>();
  const maxBytes: number[] = [];
  return {
    ...nodeFileReader,
    inspected,
    listed,
    maxBytes,
    stat: (path) => (inspected.add(path), nodeFileReader.stat(path)),
    readText: (path, limit) => (inspected.add(path), maxBytes.push(limit), nodeFileReader.readText(path, limit)),
    list: (dir) => (listed.add(dir), nodeFileReader.list(dir)),
  };
}

/**
 * A home as the CLI sees it: the temp home's variables, PATH holding only a fake of the runtime's
 * binary (it leaves a `.ran` file if anything runs it), the working folder a project inside the
 * temp root, bosun's data folder where the CLI has it, the real reader (recording) and the real
 * TCP probe (the temp home's a0 host is a closed loopback port).
 */
export interface StatusHome extends TempHome {
  binDir: string;
  cwd: string;
  reader: RecordingReader;
  ctx: DetectionContext;
}

export function makeStatusHome(runtime: StatusRuntime, env: Env = {}): StatusHome {
  const t = makeTempHome();
  const binDir = join(t.root, "bin");
  const cwd = join(t.root, "project");
  mkdirSync(binDir);
  mkdirSync(cwd);
  const binary = join(binDir, runtime.binary);
  writeFileSync(binary, '#!/bin/sh\necho ran >> "$0.ran"\nexit 97\n');
  chmodSync(binary, 0o755);
  const reader = recordingReader();
  const fullEnv: Env = { ...t.env, PATH: binDir, ...env };
  const ctx: DetectionContext = { env: fullEnv, home: t.home, cwd, dataDir: t.paths.data, files: reader, probeSocket: probeTcp };
  return { ...t, env: fullEnv, binDir, cwd, reader, ctx };
}

/** Every facet of the status adapter, called directly (a throw is not caught here). */
export interface StatusRun {
  binary: string;
  installed: boolean;
  auth: AuthStatus;
  plan?: DisconnectPlan;
  variant?: RuntimeVariant;
  locations: CredentialLocations;
  dataDir: string;
}

export async function runStatus(runtime: StatusRuntime, ctx: DetectionContext): Promise<StatusRun> {
  const { status } = runtime;
  const run: StatusRun = {
    binary: status.resolveBinary({}, ctx),
    installed: status.isInstalled({}, ctx),
    auth: await status.authStatus({}, ctx),
    locations: status.credentialLocations({}, ctx),
    dataDir: status.dataDir(ctx),
  };
  if (status.planDisconnect) run.plan = await status.planDisconnect({}, ctx);
  if (runtime.variant) run.variant = runtime.variant({}, ctx);
  return run;
}

/** The report `bosun agents --json` gives, from the same context. */
export function reportOf(runtime: StatusRuntime, ctx: DetectionContext): Promise<AgentReport> {
  return reportRuntime(runtime, {}, ctx);
}

/** A distinctive fake secret per runtime and number: 32 letters and digits, the same every run. */
export function fakeSecret(runtimeId: string, n: number): string {
  let seed = n + 1;
  for (const char of runtimeId) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  const next = seededRandom(seed);
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  let value = "";
  for (let i = 0; i < 32; i++) value += alphabet[Math.floor(next() * alphabet.length)];
  return value;
}

/** Leaks of 12 characters or more are caught: a masked key's head or tail counts too. */
export function leaksIn(text: string, secrets: readonly string[]): string[] {
  const WINDOW = 12;
  return secrets.filter((secret) => {
    for (let i = 0; i + WINDOW <= secret.length; i++) if (text.includes(secret.slice(i, i + WINDOW))) return true;
    return false;
  });
}

/**
 * Content that looks like a login in the common formats, with the secret under the usual key
 * names and under each of the runtime's declared credential variables: JSON for `.json`, TOML for
 * `.toml`, `NAME=value` lines otherwise (`.env` files, profile names, anything else).
 */
export function plantedContent(path: string, secret: string, envNames: readonly string[]): string {
  const names = [...envNames, "API_KEY", "TOKEN"];
  if (path.endsWith(".json")) {
    const keys = Object.fromEntries(["api_key", "apiKey", "key", "token", "access_token", "refresh_token", "accessToken", "refreshToken", ...names].map((key) => [key, secret]));
    return JSON.stringify({
      ...keys,
      type: "api",
      auth_mode: "apikey",
      tokens: { id_token: secret, access_token: secret, refresh_token: secret, account_id: secret },
      provider: { type: "api", key: secret },
      claudeAiOauth: { accessToken: secret, refreshToken: secret, scopes: ["user:inference"] },
      env: Object.fromEntries(names.map((name) => [name, secret])),
    });
  }
  if (path.endsWith(".toml")) return `api_key = "${secret}"\n[auth]\napi_key = "${secret}"\ntoken = "${secret}"\n`;
  return names.map((name) => `${name}=${secret}\n`).join("");
}

/** Writes a planted file, making its folders (private ones inside bosun's folders, as bosun makes them). */
export function plant(home: StatusHome, path: string, content: string | Buffer): void {
  const inBosun = [home.paths.config, home.paths.data, home.paths.cache, home.paths.state].some((folder) => path.startsWith(folder + "/"));
  mkdirSync(dirname(path), { recursive: true, ...(inBosun ? { mode: 0o700 } : {}) });
  writeFileSync(path, content);
}

/** Paths inside the temp root, relative to it (a path elsewhere, e.g. `/etc` or `/.env` above the project, is left alone). */
export function insideRoot(root: string, paths: Iterable<string>): string[] {
  return [...new Set([...paths].filter((path) => path.startsWith(root + "/")).map((path) => relative(root, path)))].sort();
}

const PLANTED = "planted-while-looking";

/** Where a runtime keeps or looks for credentials in a home, relative to the temp root. */
export interface CredentialPlaces {
  /** Files it declares or inspects (stat, read). */
  files: string[];
  /** Folders it declares or lists. */
  folders: string[];
  /** The credential variables it declares. */
  env: string[];
}

/**
 * A runtime's places: what it declares (`credentialLocations`) and everything its detection
 * inspects, in an empty home and again in one where each place holds a planted login (a file in
 * each folder), so that a file looked at only once another is there is found too. The folders the
 * home is made of (the temp root, HOME, the project, PATH's folder) and the binary are not places.
 */
export async function credentialPlaces(runtime: StatusRuntime): Promise<CredentialPlaces> {
  const clean = makeStatusHome(runtime);
  await runStatus(runtime, clean.ctx);
  const declared = runtime.status.credentialLocations({}, clean.ctx);
  // The declared paths inside the first home, moved into another (those elsewhere stay out).
  const rebase = (home: StatusHome, paths: string[]) => insideRoot(clean.root, paths).map((place) => join(home.root, place));
  const skeleton = new Set(insideRoot(clean.root, [clean.home, clean.cwd, clean.binDir, join(clean.binDir, runtime.binary)]));
  const seen = (home: StatusHome) => ({
    folders: insideRoot(home.root, [...home.reader.listed, ...rebase(home, declared.folders)]),
    files: insideRoot(home.root, [...home.reader.inspected, ...rebase(home, declared.files)]),
  });
  const first = seen(clean);
  const seeded = makeStatusHome(runtime);
  plantLogins(seeded, { ...first, env: declared.env }, () => PLANTED);
  await runStatus(runtime, seeded.ctx);
  const second = seen(seeded);
  // A path named by planted content (Claude's profile `configs/<active_config>.json`) is not a place of its own.
  const isPlace = (place: string) => !skeleton.has(place) && !place.includes(PLANTED);
  const folders = [...new Set([...first.folders, ...second.folders])].filter(isPlace).sort();
  const files = [...new Set([...first.files, ...second.files])].filter((place) => isPlace(place) && !folders.includes(place)).sort();
  return { files, folders, env: declared.env };
}

/**
 * Plants a login at every place of a home: each file (but one that holds another place, which is a
 * folder) and a `credentials.json` in each folder, each with its own secret. Returns the secrets.
 */
export function plantLogins(home: StatusHome, places: Omit<CredentialPlaces, "env"> & { env: readonly string[] }, secretFor: (n: number) => string): string[] {
  const secrets: string[] = [];
  const all = [...places.files, ...places.folders];
  const isFolder = (place: string) => places.folders.includes(place) || all.some((other) => other.startsWith(place + "/"));
  const targets = [...places.files.filter((place) => !isFolder(place)), ...places.folders.map((folder) => join(folder, "credentials.json"))];
  for (const target of [...new Set(targets)]) {
    const secret = secretFor(secrets.length);
    secrets.push(secret);
    plant(home, join(home.root, target), plantedContent(target, secret, places.env));
  }
  return secrets;
}

/** One odd thing put where a credential file is looked for. `secret` goes into those that hold bytes. */
export interface Oddity {
  name: string;
  make(path: string, secret: string): void;
}

/**
 * The odd files. "Unreadable" has to hold as root too (CI runs the tests as root, and root reads
 * a mode-000 file and enters a folder without its x-bit): so it is a symlink loop (ELOOP) and a
 * folder where a file is expected (EISDIR), which no user can read as a file; the mode-000 file is
 * there as well, a real EACCES for anyone else (as root it is just an unusable file).
 */
export const ODDITIES: readonly Oddity[] = [
  { name: "a FIFO", make: (path) => makeFifo(path) },
  {
    name: `a file over the ${MAX_CREDENTIAL_BYTES / 1024 / 1024} MiB limit`,
    make: (path, secret) => {
      // Sparse: the secret, then zeros up to four times the limit.
      writeFileSync(path, `{"api_key": "${secret}", "pad": "`);
      truncateSync(path, 4 * MAX_CREDENTIAL_BYTES);
    },
  },
  { name: "bytes that are not UTF-8", make: (path, secret) => writeFileSync(path, Buffer.concat([Buffer.from(`{"api_key": "${secret}`), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xff]), Buffer.from('"}')])) },
  { name: "unreadable: a symlink loop", make: (path) => symlinkSync(path, path) },
  { name: "unreadable: a folder where a file is expected", make: (path) => mkdirSync(path) },
  {
    name: "unreadable: mode 000",
    make: (path, secret) => {
      writeFileSync(path, `\u0000 ${secret} \u0000`);
      chmodSync(path, 0o000);
    },
  },
];

/**
 * A FIFO opened for reading blocks until a writer comes, which a vitest timeout cannot interrupt
 * (the open is synchronous). So each FIFO gets a writer that, every `ms`, opens it, writes a byte
 * and closes it: each detection that blocks on it is let go then (and fails on its time) instead
 * of hanging the run. Returns the stopper.
 */
export function releaseFifoAfter(path: string, ms: number): () => void {
  const child: ChildProcess = spawn("sh", ["-c", `while :; do sleep ${ms / 1000}; exec 3>"$0"; printf x >&3; exec 3>&-; done`, path], { stdio: "ignore" });
  return () => {
    child.kill("SIGKILL");
  };
}
