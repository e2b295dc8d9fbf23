import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { classifyModelError } from "../../src/agent/model/errors.js";
import { ModelEndpointError } from "../../src/llm/model-endpoint.js";
import { classifyNetworkFailure, isRetryableStatus } from "../../src/kernel/net/network-failure.js";
import { shownUrl } from "../../src/kernel/net/shown-url.js";

/** A system error as Node reports it (what undici puts under its `TypeError: fetch failed`). */
function systemError(code: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

/** What the AI SDK makes of a failed fetch: `Cannot connect to API` with the system error as cause. */
function cannotConnect(cause: Error): APICallError {
  return new APICallError({ message: `Cannot connect to API: ${cause.message}`, url: "http://gpu.lan:8080/v1/chat/completions", requestBodyValues: {}, cause, isRetryable: true });
}

describe("classifying failed model calls", () => {
  it("finds the real failure through bosun's endpoint, the SDK's retry error, its call error and undici's cause", () => {
    const lookup = systemError("EAI_AGAIN", "getaddrinfo EAI_AGAIN gpu.lan", { hostname: "gpu.lan" });
    const retried = new RetryError({ message: "Failed after 3 attempts", reason: "maxRetriesExceeded", errors: [cannotConnect(lookup), cannotConnect(lookup)] });
    const wrapped = new ModelEndpointError({ providerID: "lan", url: "http://gpu.lan:8080/v1", origin: "set in /etc/bosun.json:7" }, retried);
    expect(classifyModelError(wrapped)).toEqual({
      transient: false,
      contextOverflow: false,
      message: "cannot reach provider lan at http://gpu.lan:8080/v1 (set in /etc/bosun.json:7): the host gpu.lan could not be looked up (EAI_AGAIN)",
    });
    // Without bosun's endpoint the request's URL still says where.
    expect(classifyModelError(cannotConnect(systemError("EHOSTUNREACH", "connect EHOSTUNREACH 10.0.0.9:8080"))).message).toBe(
      "cannot reach http://gpu.lan:8080/v1/chat/completions: the host cannot be reached (EHOSTUNREACH)",
    );
  });

  it("sorts network failures: unreachable ones are permanent, dropped connections and timeouts are not", () => {
    const happyEyeballs = Object.assign(new AggregateError([systemError("ECONNREFUSED", "connect ECONNREFUSED ::1:11434"), systemError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:11434")]), { code: "ECONNREFUSED" });
    const fetchFailed = (cause: unknown) => Object.assign(new TypeError("fetch failed"), { cause });
    const cases: [unknown, string, boolean][] = [
      [fetchFailed(happyEyeballs), "refused", true],
      [fetchFailed(systemError("ENOTFOUND", "getaddrinfo ENOTFOUND x.invalid", { hostname: "x.invalid" })), "unresolved", true],
      [fetchFailed(new Error("bad port")), "bad-address", true],
      [fetchFailed(new Error("unknown scheme")), "bad-address", true],
      [fetchFailed(systemError("ENETUNREACH", "connect ENETUNREACH")), "unreachable", true],
      [fetchFailed(systemError("ECONNRESET", "read ECONNRESET")), "reset", false],
      [Object.assign(new TypeError("terminated"), { cause: systemError("UND_ERR_SOCKET", "other side closed") }), "reset", false],
      [fetchFailed(new Error("socket hang up")), "reset", false],
      [fetchFailed(systemError("UND_ERR_CONNECT_TIMEOUT", "Connect Timeout Error")), "timeout", false],
      [new DOMException("The operation was aborted due to timeout", "TimeoutError"), "timeout", false],
    ];
    for (const [error, kind, permanent] of cases) expect(classifyNetworkFailure(error)).toMatchObject({ kind, permanent });
    expect(classifyNetworkFailure(new Error("Unexpected token < in JSON"))).toBeUndefined();
  });

  it("retries the statuses that pass (408, 425, 429, 5xx except 501 and 505), nothing else", () => {
    const retried = [400, 401, 403, 404, 408, 409, 413, 422, 425, 429, 500, 501, 502, 503, 504, 505, 529].filter(isRetryableStatus);
    expect(retried).toEqual([408, 425, 429, 500, 502, 503, 504, 529]);
    const overloaded = new APICallError({ message: "Overloaded", url: "https://api.example/v1/messages", requestBodyValues: {}, statusCode: 529, responseBody: '{"error":{"message":"Overloaded"}}' });
    expect(classifyModelError(new ModelEndpointError({ providerID: "p" }, overloaded))).toEqual({ transient: true, contextOverflow: false, message: "529: Overloaded" });
  });

  it("shows a provider's URL without user name, password, query or fragment, in every line that names it", () => {
    const reset = () => Object.assign(new TypeError("fetch failed"), { cause: systemError("ECONNRESET", "read ECONNRESET") });
    const endpoint = { providerID: "proxy", url: "https://bob:hunter2@proxy.example:8443/v1?token=tok-1234#frag" };
    expect(classifyModelError(new ModelEndpointError(endpoint, reset())).message).toBe("provider proxy at https://proxy.example:8443/v1: the connection dropped (ECONNRESET)");
    const call = new APICallError({ message: "Cannot connect to API", url: "http://gpu.lan:8080/v1/chat/completions?key=AIza-secret", requestBodyValues: {}, cause: reset() });
    expect(classifyModelError(call).message).toBe("http://gpu.lan:8080/v1/chat/completions: the connection dropped (ECONNRESET)");
    const refused = new ModelEndpointError({ providerID: "p", url: "http://me:pw@127.0.0.1:99999/v1?t=1" }, Object.assign(new TypeError("fetch failed"), { cause: systemError("ERR_INVALID_URL", "Invalid URL") }));
    expect(classifyModelError(refused).message).toBe("cannot reach provider p at http://127.0.0.1:99999/v1: not a valid URL (ERR_INVALID_URL)");
  });

  it("cuts credentials out of URLs that parse and of ones that do not, and leaves the rest as written", () => {
    const cases: [string, string][] = [
      ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"],
      ["https://api.example", "https://api.example"],
      ["https://api.example/", "https://api.example/"],
      ["http://bob@host:8080/v1", "http://host:8080/v1"],
      ["http://bob:p%40ss@host/v1", "http://host/v1"],
      ["https://host/v1?api-version=2024&key=k#x", "https://host/v1"],
      ["http://[::1]:8080/v1?token=t", "http://[::1]:8080/v1"],
      // Not URLs fetch can use (a port out of range, a password with a raw @ and ?): still cut.
      ["http://bob:hunter2@127.0.0.1:99999/v1?token=t", "http://127.0.0.1:99999/v1"],
      ["http://bob:se?cr@et@host:99999/v1", "http://host:99999/v1"],
      ["gpu.lan:8080/v1?key=k", "gpu.lan:8080/v1"],
    ];
    for (const [url, shown] of cases) expect(shownUrl(url), url).toBe(shown);
  });
});
