/**
 * Codex's `auth.json`, judged the way Codex 0.171 reads it: the file must be a JSON object whose
 * known fields have the right types (Codex refuses the whole file otherwise), and the login it
 * holds is an API key or ChatGPT tokens. Nothing here keeps or returns a value from the file.
 */

/** What Codex makes of one `auth.json`. `problem` is display-safe: field names only. */
export type CodexAuthFileVerdict = { usable: true; method: CodexLoginMethod } | { usable: false; problem: string };

/** `api-key`: `codex login status` says "API key configured"; `chatgpt`: "Logged in using ChatGPT". */
export type CodexLoginMethod = "api-key" | "chatgpt";

// The auth_mode values Codex 0.171 accepts; any other string makes the file unreadable to it.
const AUTH_MODES: Readonly<Record<string, CodexLoginMethod>> = { apikey: "api-key", chatgpt: "chatgpt", chatgptAuthTokens: "chatgpt" };

// The claims Codex reads from the id token, by where they sit; each must be a string when present.
const AUTH_CLAIMS = ["chatgpt_plan_type", "chatgpt_user_id", "user_id", "chatgpt_account_id"];
const AUTH_CLAIMS_KEY = "https://api.openai.com/auth";
const PROFILE_CLAIMS_KEY = "https://api.openai.com/profile";

// RFC 3339 date-time, as `last_refresh` must be.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64URL_UNPADDED = /^[A-Za-z0-9_-]+$/;

export function judgeCodexAuthFile(text: string): CodexAuthFileVerdict {
  let root: unknown;
  try {
    // Strict JSON, as Codex's parser: no byte-order mark, nothing after the value, not blank.
    root = JSON.parse(text);
  } catch {
    return refused("it is not valid JSON");
  }
  if (!isObject(root)) return refused("it is not a JSON object");
  if (hasDuplicateKnownKey(text)) return refused("a field appears twice");
  const mode = root.auth_mode;
  if (mode != null && (typeof mode !== "string" || !Object.hasOwn(AUTH_MODES, mode))) return refused("auth_mode is not one Codex knows (apikey, chatgpt)");
  const key = root.OPENAI_API_KEY;
  if (key != null && typeof key !== "string") return refused("OPENAI_API_KEY is not a string");
  if (root.last_refresh != null && (typeof root.last_refresh !== "string" || !RFC3339.test(root.last_refresh))) return refused("last_refresh is not a date-time");
  const tokens = root.tokens;
  if (tokens != null) {
    const problem = tokensProblem(tokens);
    if (problem) return refused(problem);
  }
  // No auth_mode: a key decides (even an empty one); without one, Codex takes the file as a ChatGPT login.
  const method = mode != null ? AUTH_MODES[mode as string]! : key != null ? "api-key" : "chatgpt";
  if (method === "api-key" && key == null) return refused("auth_mode is apikey but there is no OPENAI_API_KEY");
  return { usable: true, method };
}

function refused(problem: string): CodexAuthFileVerdict {
  return { usable: false, problem };
}

function tokensProblem(tokens: unknown): string | undefined {
  if (!isObject(tokens)) return "tokens is not an object";
  for (const field of ["access_token", "refresh_token"]) {
    if (typeof tokens[field] !== "string") return `tokens.${field} is missing or not a string`;
  }
  if (tokens.account_id != null && typeof tokens.account_id !== "string") return "tokens.account_id is not a string";
  if (typeof tokens.id_token !== "string") return "tokens.id_token is missing or not a string";
  return idTokenProblem(tokens.id_token);
}

/** Codex decodes the id token's claims (without checking its signature) and refuses the file when it cannot. */
function idTokenProblem(jwt: string): string | undefined {
  const [header, payload, signature] = jwt.split(".");
  if (!header || !payload || !signature) return "tokens.id_token is not a JWT";
  if (!BASE64URL_UNPADDED.test(payload) || payload.length % 4 === 1) return "tokens.id_token is not a JWT (its payload is not base64url)";
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(payload, "base64url")));
  } catch {
    return "tokens.id_token is not a JWT (its payload is not JSON)";
  }
  return claimsAreReadable(claims) ? undefined : "tokens.id_token has claims of the wrong type";
}

function claimsAreReadable(claims: unknown): boolean {
  // A JSON array is read field by field in order; every field Codex reads is an optional string.
  if (Array.isArray(claims)) return claims.every(isOptionalString);
  if (!isObject(claims)) return false;
  if (!isOptionalString(claims.email)) return false;
  const profile = claims[PROFILE_CLAIMS_KEY];
  if (profile != null && (!isObject(profile) || !isOptionalString(profile.email))) return false;
  const auth = claims[AUTH_CLAIMS_KEY];
  if (auth == null) return true;
  return isObject(auth) && AUTH_CLAIMS.every((name) => isOptionalString(auth[name]));
}

// Codex refuses a file that names one of its own fields twice; JSON.parse would keep the last.
const KNOWN_FIELDS = new Set(["auth_mode", "OPENAI_API_KEY", "tokens", "last_refresh"]);

function hasDuplicateKnownKey(text: string): boolean {
  const seen = new Set<string>();
  for (const key of topLevelKeys(text)) {
    if (!KNOWN_FIELDS.has(key)) continue;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** The keys of the top-level object of valid JSON text, in order, duplicates kept. */
function* topLevelKeys(text: string): Generator<string> {
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const end = stringEnd(text, i);
      if (depth === 1 && expectKey) yield JSON.parse(text.slice(i, end + 1)) as string;
      expectKey = false;
      i = end;
    } else if (char === "{" || char === "[") {
      depth++;
      expectKey = depth === 1 && char === "{";
    } else if (char === "}" || char === "]") {
      depth--;
    } else if (char === "," && depth === 1) {
      expectKey = true;
    }
  }
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

function isOptionalString(value: unknown): boolean {
  return value == null || typeof value === "string";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
