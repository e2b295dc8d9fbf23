import { dirname, relative } from "node:path";
import type { Env } from "../kernel/paths.js";
import { UserError } from "../kernel/errors.js";
import { redactSecrets, type Secret } from "../kernel/redact/redact.js";
import { writeFileAtomically } from "../kernel/fs/atomic-write.js";
import { inspectFolder } from "../kernel/fs/folder-error.js";
import { ensurePrivateDirs } from "../kernel/fs/private-dir.js";
import { codexPluginAuthPath } from "./codex.js";
import { oneLine } from "./kit/probe-error.js";
import type { DetectionContext } from "./kit/types.js";

/** The public OAuth client of the Codex CLI; tokens it gets are the ones Codex itself uses. */
export const CODEX_CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
export const CODEX_AUTH_BASE = "https://auth.openai.com";
/** Overrides the OAuth server (tests point it at a local one). */
export const CODEX_AUTH_BASE_VAR = "BOSUN_CODEX_AUTH_BASE";
export const DEVICE_LOGIN_TIMEOUT_MS = 15 * 60 * 1000;
export const HTTP_TIMEOUT_MS = 30_000;
const MIN_POLL_SECONDS = 3;
const DEFAULT_POLL_SECONDS = 5;
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** What the user needs to finish the login, and how often bosun asks whether they did. */
export interface DeviceLoginStart {
  deviceAuthId: string;
  userCode: string;
  /** Seconds the server asks between polls. */
  interval: number;
  /** Epoch seconds after which bosun gives up. */
  expiresAt: number;
  verificationUrl: string;
}

export interface DeviceLoginIo {
  base: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  httpTimeoutMs?: number;
}

/** The tokens of a finished login. They go into the auth file and nowhere else. */
export interface CodexTokens {
  idToken: string;
  accessToken: string;
  refreshToken: string;
  accountId: string;
}

/** The device login failed; the message says at which step and why, without any token. */
export class DeviceLoginError extends UserError {
  override name = "DeviceLoginError";
  constructor(readonly reason: string) {
    super(`Codex login failed: ${reason}`);
  }
}

export class DeviceLoginTimeoutError extends UserError {
  override name = "DeviceLoginTimeoutError";
  constructor(readonly minutes: number) {
    super(`Codex login timed out after ${minutes} minutes; run bosun agents login codex again`);
  }
}

export class DeviceLoginCancelledError extends UserError {
  override name = "DeviceLoginCancelledError";
  constructor() {
    super("Codex login cancelled; nothing was stored");
  }
}

/** The OAuth server: `BOSUN_CODEX_AUTH_BASE`, else OpenAI's. Plain http only for this machine. */
export function codexAuthBase(env: Env): string {
  const configured = env[CODEX_AUTH_BASE_VAR]?.trim();
  if (!configured) return CODEX_AUTH_BASE;
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new UserError(`${CODEX_AUTH_BASE_VAR} is not a URL; use e.g. https://auth.example.com`);
  }
  if (url.username || url.password) throw new UserError(`${CODEX_AUTH_BASE_VAR} must not contain a user name or password`);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
    throw new UserError(`${CODEX_AUTH_BASE_VAR} must be an https URL (plain http only for localhost)`);
  }
  return configured.replace(/\/+$/, "");
}

/** Step 1: ask for a user code. */
export async function startCodexDeviceLogin(io: DeviceLoginIo): Promise<DeviceLoginStart> {
  const now = io.now ?? Date.now;
  const body = await postJson(io, "/api/accounts/deviceauth/usercode", { client_id: CODEX_CLIENT_ID }, []);
  const deviceAuthId = stringField(body.value, "device_auth_id");
  const userCode = stringField(body.value, "user_code") || stringField(body.value, "usercode");
  const missing = [!deviceAuthId && "device_auth_id", !userCode && "user_code"].filter(Boolean);
  if (missing.length > 0) throw new DeviceLoginError(`the login server's answer is missing: ${missing.join(", ")}`);
  const interval = Math.trunc(Number(fieldOf(body.value, "interval"))) || DEFAULT_POLL_SECONDS;
  return {
    deviceAuthId,
    userCode,
    interval: interval > 0 ? interval : DEFAULT_POLL_SECONDS,
    expiresAt: Math.floor((now() + DEVICE_LOGIN_TIMEOUT_MS) / 1000),
    verificationUrl: `${io.base}/codex/device`,
  };
}

/**
 * Step 2 once: has the user finished? 403 and 404 mean not yet. When they have, step 3 swaps
 * the authorization code for tokens.
 */
export async function pollCodexDeviceLogin(start: DeviceLoginStart, io: DeviceLoginIo): Promise<CodexTokens | undefined> {
  if (!start.deviceAuthId || !start.userCode) throw new DeviceLoginError("missing device_auth_id or user_code");
  const known: Secret[] = [{ name: "device_auth_id", value: start.deviceAuthId }];
  const answer = await postJson(io, "/api/accounts/deviceauth/token", { device_auth_id: start.deviceAuthId, user_code: start.userCode }, known, [403, 404]);
  if (answer.pending) return undefined;
  const code = stringField(answer.value, "authorization_code");
  const verifier = stringField(answer.value, "code_verifier");
  const missing = [!code && "authorization_code", !verifier && "code_verifier"].filter(Boolean);
  if (missing.length > 0) throw new DeviceLoginError(`the login server's answer is missing: ${missing.join(", ")}`);
  known.push({ name: "authorization_code", value: code }, { name: "code_verifier", value: verifier });
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: `${io.base}/deviceauth/callback`,
    client_id: CODEX_CLIENT_ID,
    code_verifier: verifier,
  });
  const tokens = await post(io, "/oauth/token", { "content-type": "application/x-www-form-urlencoded" }, form.toString(), known);
  const idToken = stringField(tokens.value, "id_token");
  const accessToken = stringField(tokens.value, "access_token");
  const refreshToken = stringField(tokens.value, "refresh_token");
  const absent = [!idToken && "id_token", !accessToken && "access_token", !refreshToken && "refresh_token"].filter(Boolean);
  if (absent.length > 0) throw new DeviceLoginError(`the token answer is missing: ${absent.join(", ")}`);
  return { idToken, accessToken, refreshToken, accountId: accountIdFromIdToken(idToken) };
}

/**
 * Polls until the user finishes: every max(3 s, interval), for at most 15 minutes from the
 * start, stopping at the first error or when `signal` aborts.
 */
export async function waitForCodexDeviceLogin(start: DeviceLoginStart, io: DeviceLoginIo, onPending?: () => void): Promise<CodexTokens> {
  const now = io.now ?? Date.now;
  const sleep = io.sleep ?? abortableSleep;
  const deadline = start.expiresAt * 1000;
  const everyMs = Math.max(MIN_POLL_SECONDS, start.interval || DEFAULT_POLL_SECONDS) * 1000;
  for (;;) {
    if (now() + everyMs > deadline) throw new DeviceLoginTimeoutError(DEVICE_LOGIN_TIMEOUT_MS / 60_000);
    await sleep(everyMs, io.signal).catch((error: unknown) => {
      throw io.signal?.aborted ? new DeviceLoginCancelledError() : error;
    });
    if (io.signal?.aborted) throw new DeviceLoginCancelledError();
    const tokens = await pollCodexDeviceLogin(start, io);
    if (tokens) return tokens;
    onPending?.();
  }
}

/**
 * Fails before the user signs in when the login could not be saved afterwards: the folder it goes
 * in cannot be created or written (judged by reading only; nothing is created yet).
 */
export function checkCodexLoginFolder(ctx: Pick<DetectionContext, "dataDir">): void {
  const problem = inspectFolder(dirname(codexPluginAuthPath(ctx)));
  if (problem) throw problem;
}

/**
 * Writes the login where Codex reads one (`auth.json`, Codex's own schema) in bosun's folder for
 * Codex: private folders, a temp file created 0600, synced and renamed over the target.
 */
export async function saveCodexLogin(ctx: Pick<DetectionContext, "dataDir">, tokens: CodexTokens, now: () => number = Date.now): Promise<string> {
  const path = codexPluginAuthPath(ctx);
  ensurePrivateDirs(ctx.dataDir, relative(ctx.dataDir, dirname(path)));
  const content = {
    auth_mode: "chatgpt",
    OPENAI_API_KEY: null,
    tokens: { id_token: tokens.idToken, access_token: tokens.accessToken, refresh_token: tokens.refreshToken, account_id: tokens.accountId },
    last_refresh: new Date(now()).toISOString(),
  };
  await writeFileAtomically(path, JSON.stringify(content, null, 2) + "\n", { mode: 0o600 });
  return path;
}

/** The ChatGPT account id inside the id token (a JWT); "" when it is not there. */
export function accountIdFromIdToken(idToken: string): string {
  try {
    const payload = idToken.split(".")[1];
    if (!payload) return "";
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    const auth = claims["https://api.openai.com/auth"] as Record<string, unknown> | undefined;
    const id = auth?.chatgpt_account_id;
    return typeof id === "string" ? id : "";
  } catch {
    return "";
  }
}

function postJson(io: DeviceLoginIo, path: string, body: unknown, known: Secret[], pendingStatuses: number[] = []) {
  return post(io, path, { "content-type": "application/json" }, JSON.stringify(body), known, pendingStatuses);
}

async function post(
  io: DeviceLoginIo,
  path: string,
  headers: Record<string, string>,
  body: string,
  known: Secret[],
  pendingStatuses: number[] = [],
): Promise<{ pending: boolean; value: unknown }> {
  const timeoutMs = io.httpTimeoutMs ?? HTTP_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = io.signal ? AbortSignal.any([io.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await (io.fetch ?? fetch)(`${io.base}${path}`, { method: "POST", headers: { accept: "application/json", ...headers }, body, signal, redirect: "error" });
    text = await readBounded(response);
  } catch (error) {
    if (io.signal?.aborted) throw new DeviceLoginCancelledError();
    if (timeout.aborted) throw new DeviceLoginError(`${io.base} did not answer within ${timeoutMs / 1000} s`);
    if (error instanceof DeviceLoginError) throw error;
    throw new DeviceLoginError(`cannot reach ${io.base} (${networkReason(error)})`);
  }
  if (pendingStatuses.includes(response.status)) return { pending: true, value: undefined };
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  if (!response.ok) throw new DeviceLoginError(serverComplaint(value, response.status, known));
  if (typeof value !== "object" || value === null) throw new DeviceLoginError(`${io.base}${path} did not answer with a JSON object`);
  return { pending: false, value };
}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new DeviceLoginError("the login server's answer is too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// The server's own words, redacted and short: `error_description`, else `error`, else the status.
function serverComplaint(value: unknown, status: number, known: Secret[]): string {
  const description = fieldOf(value, "error_description");
  const error = fieldOf(value, "error");
  const nested = typeof error === "object" && error !== null ? (error as Record<string, unknown>).message : undefined;
  const said = [description, error, nested].find((candidate): candidate is string => typeof candidate === "string" && candidate.trim() !== "");
  return said ? oneLine(redactSecrets(said, known), 200) : `OAuth endpoint returned status ${status}`;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return oneLine(cause.message, 60);
  return error instanceof Error ? error.name : "network error";
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringField(value: unknown, key: string): string {
  const field = fieldOf(value, key);
  return typeof field === "string" ? field.trim() : "";
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
