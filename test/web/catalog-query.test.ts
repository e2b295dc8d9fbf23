// catalogQuery, the check of `/api/catalog`'s and `/catalog`'s query parameters, as a table: what
// each accepted query becomes (defaults, trimming, `available`), and the exact one-line message of
// each refusal (it names the parameter; the route answers it as a 400).
import { describe, expect, it } from "vitest";
import { catalogQuery, QueryError } from "../../src/web/catalog-query.js";

const LIMIT = "limit: use a whole number from 1 to 200";
const AVAILABLE = "available: use 1 (only available providers) or 0";

describe("catalogQuery", () => {
  it.each<[string, Record<string, string | undefined>, ReturnType<typeof catalogQuery>]>([
    ["no parameter: every model, 100 at most", {}, { limit: 100 }],
    ["a query, trimmed", { q: "  claude sonnet  " }, { query: "claude sonnet", limit: 100 }],
    ["a provider, trimmed", { provider: " anthropic\t" }, { provider: "anthropic", limit: 100 }],
    ["blank q and provider are no filter", { q: "   ", provider: "" }, { limit: 100 }],
    ["available=1: only available providers", { available: "1" }, { availableOnly: true, limit: 100 }],
    ["available=0: all providers", { available: "0" }, { limit: 100 }],
    ["available= (empty): all providers", { available: "" }, { limit: 100 }],
    ["the smallest limit", { limit: "1" }, { limit: 1 }],
    ["the largest limit", { limit: "200" }, { limit: 200 }],
    ["a limit with leading zeros", { limit: "0042" }, { limit: 42 }],
    ["q of exactly 200 characters", { q: "a".repeat(200) }, { query: "a".repeat(200), limit: 100 }],
    ["everything at once", { q: "gpt", provider: "openai", available: "1", limit: "5" }, { query: "gpt", provider: "openai", availableOnly: true, limit: 5 }],
  ])("accepts %s", (_name, params, expected) => {
    expect(catalogQuery(params)).toEqual(expected);
  });

  it.each<[string, Record<string, string | undefined>, string]>([
    ["limit=0", { limit: "0" }, LIMIT],
    ["limit=201", { limit: "201" }, LIMIT],
    ["limit=99999 (five digits)", { limit: "99999" }, LIMIT],
    ["limit=abc", { limit: "abc" }, LIMIT],
    ["limit= (empty)", { limit: "" }, LIMIT],
    ["limit=-1", { limit: "-1" }, LIMIT],
    ["limit=1.5", { limit: "1.5" }, LIMIT],
    ["limit=1e2", { limit: "1e2" }, LIMIT],
    ["limit with a space", { limit: " 5" }, LIMIT],
    ["available=yes", { available: "yes" }, AVAILABLE],
    ["available=true", { available: "true" }, AVAILABLE],
    ["q of 201 characters", { q: "a".repeat(201) }, "q: use at most 200 characters"],
    ["q of 201 spaces (checked before trimming)", { q: " ".repeat(201) }, "q: use at most 200 characters"],
    ["provider of 201 characters", { provider: "p".repeat(201) }, "provider: use at most 200 characters"],
  ])("refuses %s with one line naming the parameter", (_name, params, message) => {
    let thrown: unknown;
    try {
      catalogQuery(params);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(QueryError);
    expect((thrown as QueryError).message).toBe(message);
    expect((thrown as QueryError).message).not.toContain("\n");
  });

  it("checks limit before the other parameters (one message at a time)", () => {
    expect(() => catalogQuery({ limit: "0", available: "yes", q: "a".repeat(201) })).toThrow(LIMIT);
    expect(() => catalogQuery({ available: "yes", q: "a".repeat(201) })).toThrow(AVAILABLE);
  });
});
