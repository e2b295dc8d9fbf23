/**
 * What kind of network failure an error is, for every caller that decides whether to try again
 * (model calls, the models.dev download). The failure that matters is usually deep inside:
 * undici's `TypeError: fetch failed` carries the system error as its `cause`, the AI SDK wraps
 * that in an `APICallError`, a retry wrapper keeps a list of errors, and bosun wraps the lot once
 * more with the endpoint it was calling.
 */
export type NetworkFailureKind =
  /** Nothing accepts connections at that address. */
  | "refused"
  /** The host name does not resolve. */
  | "unresolved"
  /** The URL cannot be used at all (not a URL, a port fetch blocks, a scheme it does not speak). */
  | "bad-address"
  /** No route to the host or its network. */
  | "unreachable"
  /** An open connection was dropped (reset, closed by the other side, cut mid-answer). */
  | "reset"
  /** No answer in time. */
  | "timeout"
  /** The secure connection failed: a certificate this machine does not trust, or no TLS at all there. */
  | "tls";

export interface NetworkFailure {
  kind: NetworkFailureKind;
  /** Trying again at once cannot help: the address is wrong or nothing answers there. */
  permanent: boolean;
  /** What went wrong in a few words, with the system's code when there is one. */
  reason: string;
}

const PERMANENT: ReadonlySet<NetworkFailureKind> = new Set(["refused", "unresolved", "bad-address", "unreachable", "tls"]);

const KIND_OF_CODE: Record<string, NetworkFailureKind> = {
  ECONNREFUSED: "refused",
  ENOTFOUND: "unresolved",
  EAI_AGAIN: "unresolved",
  EAI_NONAME: "unresolved",
  EAI_NODATA: "unresolved",
  EAI_FAIL: "unresolved",
  ERR_INVALID_URL: "bad-address",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  ENETDOWN: "unreachable",
  EADDRNOTAVAIL: "unreachable",
  ECONNRESET: "reset",
  ECONNABORTED: "reset",
  EPIPE: "reset",
  UND_ERR_SOCKET: "reset",
  UND_ERR_CLOSED: "reset",
  ERR_STREAM_PREMATURE_CLOSE: "reset",
  ETIMEDOUT: "timeout",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_HEADERS_TIMEOUT: "timeout",
  UND_ERR_BODY_TIMEOUT: "timeout",
  EPROTO: "tls",
};

/**
 * OpenSSL's certificate verdicts (`DEPTH_ZERO_SELF_SIGNED_CERT`, `CERT_HAS_EXPIRED`…) and Node's
 * TLS and SSL errors (`ERR_TLS_CERT_ALTNAME_INVALID`, `ERR_SSL_WRONG_VERSION_NUMBER`…).
 */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|INVALID_CA$|INVALID_PURPOSE$|PATH_LENGTH_EXCEEDED$)/;
/** The certificate is signed by no authority this machine trusts. */
const UNTRUSTED_ISSUER = new Set(["SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_GET_ISSUER_CERT", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "CERT_UNTRUSTED"]);

// undici reports these without a code: only the message says what happened.
const KIND_OF_MESSAGE: [RegExp, NetworkFailureKind, string][] = [
  [/^bad port$/i, "bad-address", "the port is one fetch refuses to use (bad port)"],
  [/^unknown scheme$/i, "bad-address", "the URL must start with http:// or https://"],
  [/^invalid url/i, "bad-address", "not a valid URL"],
  [/url that includes credentials/i, "bad-address", "a URL with a user name or password cannot be used"],
  [/^(other side closed|socket hang up|premature close|terminated)$/i, "reset", ""],
];

/** The network failure inside `error`, if it is one; undefined for anything else. */
export function classifyNetworkFailure(error: unknown): NetworkFailure | undefined {
  const chain = errorChain(error);
  // A system code is the most precise account; undici's bare messages come next.
  for (const node of chain) {
    const code = typeof node.code === "string" ? node.code : undefined;
    const kind = code ? (KIND_OF_CODE[code] ?? (TLS_CODE.test(code) ? "tls" : undefined)) : undefined;
    if (kind) return failure(kind, describeCode(kind, code!, node));
  }
  for (const node of chain) {
    const message = typeof node.message === "string" ? node.message.trim() : "";
    for (const [pattern, kind, reason] of KIND_OF_MESSAGE) {
      if (pattern.test(message)) return failure(kind, reason || `the connection dropped (${message})`);
    }
  }
  // What AbortSignal.timeout() aborts with.
  if (chain.some((node) => node.name === "TimeoutError")) return failure("timeout", "no answer in time");
  return undefined;
}

/** HTTP statuses worth another try: a timeout, too early, rate limits and server errors that pass. */
export function isRetryableStatus(status: number): boolean {
  if (status === 408 || status === 425 || status === 429) return true;
  // 501 (not implemented) and 505 (HTTP version) will answer the same way next time.
  return status >= 500 && status <= 599 && status !== 501 && status !== 505;
}

interface ErrorNode {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  hostname?: unknown;
  /** Node's TLS errors say here what did not match (`Host: x. is not in the cert's altnames: …`). */
  reason?: unknown;
}

/** The error, its causes and the errors it aggregates (`errors`, `lastError`), outermost first, each once. */
export function errorChain(error: unknown): ErrorNode[] {
  const seen = new Set<unknown>();
  const chain: ErrorNode[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && chain.length < 50) {
    const node = queue.shift();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    chain.push(node as ErrorNode);
    const { cause, errors, lastError } = node as { cause?: unknown; errors?: unknown; lastError?: unknown };
    queue.push(cause, lastError, ...(Array.isArray(errors) ? errors : []));
  }
  return chain;
}

function failure(kind: NetworkFailureKind, reason: string): NetworkFailure {
  return { kind, permanent: PERMANENT.has(kind), reason };
}

function describeCode(kind: NetworkFailureKind, code: string, node: ErrorNode): string {
  const host = typeof node.hostname === "string" ? `the host ${node.hostname}` : "the host";
  switch (kind) {
    case "refused":
      return `connection refused (${code}): is the server running?`;
    case "unresolved":
      return code === "EAI_AGAIN" ? `${host} could not be looked up (${code})` : `${host} is not found (${code})`;
    case "bad-address":
      return `not a valid URL (${code})`;
    case "unreachable":
      return `the host cannot be reached (${code})`;
    case "reset":
      return `the connection dropped (${code})`;
    case "timeout":
      return `no answer in time (${code})`;
    case "tls":
      return describeTls(code, node);
  }
}

const TRUST_HINT = "to trust it, run bosun with NODE_EXTRA_CA_CERTS set to";

function describeTls(code: string, node: ErrorNode): string {
  if (code === "DEPTH_ZERO_SELF_SIGNED_CERT") return `the server's certificate is self-signed (${code}); ${TRUST_HINT} that certificate's PEM file`;
  if (UNTRUSTED_ISSUER.has(code)) return `the server's certificate is signed by an authority this machine does not trust (${code}); ${TRUST_HINT} the authority's PEM file`;
  if (code === "CERT_HAS_EXPIRED") return `the server's certificate has expired (${code})`;
  if (code === "CERT_NOT_YET_VALID") return `the server's certificate is not valid yet (${code}): is this machine's clock right?`;
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID" || code === "HOSTNAME_MISMATCH") {
    return `the server's certificate is for another name (${code}${typeof node.reason === "string" ? `: ${node.reason}` : ""}); use a host name it was issued for`;
  }
  const message = typeof node.message === "string" ? node.message : "";
  if (/wrong version number|packet length too long|http request/i.test(message)) return `the server does not speak TLS there (${code}): for a plain http server, use an http:// URL`;
  return `the secure connection failed (${code})`;
}
