import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/app/config-schema.js";
import { checkConfigDocument } from "../../src/kernel/config/config-check.js";
import { parseJsonc } from "../../src/kernel/jsonc.js";
import { literalSecretProblem, referencesOf, valueParts } from "../../src/mcp/secret-references.js";
import { configuredServers } from "../../src/mcp/configured-servers.js";
import { MCP_SERVER_NAME, mcpServerSchema, serverSecretProblem } from "../../src/mcp/server-schema.js";

const check = (mcp: unknown) => {
  const result = checkConfigDocument(parseJsonc("/p/bosun.json", JSON.stringify({ mcp }, null, 2)), configSchema);
  return { errors: result.errors.map((error) => `${error.field}: ${error.problem}`), warnings: result.warnings.map((w) => `${w.key} ${w.suggestion ?? ""}`.trim()), value: result.value };
};

describe("MCP server entries", () => {
  it("takes a server bosun starts and one reached over HTTP, with references to secrets", () => {
    const mcp = {
      github: { command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "{env:GITHUB_TOKEN}", LOG_LEVEL: "debug" }, cwd: "/srv", callTimeout: 30, approval: "ask", tools: { search: "allow" } },
      docs: { url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer {env:DOCS_TOKEN}", "X-Team": "web" }, enabled: false },
      local_files: { command: "/usr/bin/files-mcp", env: { KEY_FILE: "{file:~/.config/files/key}" } },
    };
    const result = check(mcp);
    expect(result.errors).toEqual([]);
    expect(result.value?.mcp).toEqual(mcp);
  });

  it("names the field to fix, from the kind of server the entry meant", () => {
    expect(check({ a: { command: "" } }).errors).toEqual(["mcp.a.command: must not be empty"]);
    expect(check({ a: { url: "ftp://x" } }).errors).toEqual(["mcp.a.url: use an http:// or https:// URL"]);
    expect(check({ a: { command: "x", url: "http://h" } }).errors).toEqual(["mcp.a: give command (a server bosun starts) or url (a server reached over HTTP), not both"]);
    expect(check({ a: { args: ["x"] } }).errors).toEqual(["mcp.a: give either command (a server bosun starts) or url (a server reached over HTTP)"]);
    expect(check({ a: 5 }).errors).toEqual(["mcp.a: use an object with command (a server bosun starts) or url (a server reached over HTTP)"]);
    expect(check({ a: { command: "x", callTimeout: 0 } }).errors).toEqual(["mcp.a.callTimeout: use a number of seconds above 0"]);
    expect(check({ a: { command: "x", approval: "sometimes" } }).errors).toEqual(["mcp.a: approval: use allow, ask or deny"]);
  });

  it("warns about an unknown key with a suggestion and leaves it out", () => {
    const result = check({ a: { command: "x", agrs: ["y"] } });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual(["mcp.a.agrs args"]);
    expect(result.value?.mcp).toEqual({ a: { command: "x" } });
  });

  it("refuses a secret in clear, naming the field and the reference to write instead", () => {
    expect(check({ gh: { command: "x", env: { GITHUB_TOKEN: "ghp_abc" } } }).errors).toEqual([
      "mcp.gh.env.GITHUB_TOKEN: carries a credential by its name but holds text, not a reference; write {env:GITHUB_TOKEN} (the variable of that name from your environment) or {file:PATH}",
    ]);
    expect(check({ gh: { command: "x", env: { ENDPOINT: "sk-proj-0123456789abcdefghijklmnopqrstuvwxyz" } } }).errors[0]).toMatch(/^mcp\.gh\.env\.ENDPOINT: looks like a key or token in clear/);
    expect(check({ d: { url: "https://h", headers: { Authorization: "Bearer abc" } } }).errors[0]).toMatch(/^mcp\.d\.headers\.Authorization: carries a credential by its name/);
    expect(check({ d: { url: "https://h", headers: { "X-Api-Key": "{env:K}" } } }).errors).toEqual([]);
  });

  it("refuses a reference bosun cannot follow", () => {
    expect(check({ a: { command: "x", env: { A: "{env:1BAD}" } } }).errors[0]).toMatch(/does not name an environment variable/);
    expect(check({ a: { command: "x", env: { A: "{file:relative/key}" } } }).errors[0]).toMatch(/must be an absolute path or start with ~\//);
    expect(check({ a: { command: "x", env: { A: "{vault:db}" } } }).errors[0]).toMatch(/\{vault:…\} is not a reference bosun knows/);
  });

  it("names servers so that their tools can be <server>__<tool>", () => {
    for (const name of ["a", "github", "my-server", "my_server", "s3", "A9"]) expect(MCP_SERVER_NAME.test(name)).toBe(true);
    for (const name of ["", "-a", "a-", "_a", "a_", "a__b", "a.b", "a b", "é", "x".repeat(65)]) expect(MCP_SERVER_NAME.test(name)).toBe(false);
    expect(check({ "a__b": { command: "x" } }).errors[0]).toMatch(/^mcp\.a__b: invalid name: use letters, digits/);
  });
});

describe("secret references", () => {
  it("cuts a value into text and references", () => {
    expect(valueParts("Bearer {env:TOKEN}")).toEqual([{ text: "Bearer " }, { ref: { kind: "env", name: "TOKEN" } }]);
    expect(referencesOf("{file:/k}:{env:B}")).toEqual([{ kind: "file", path: "/k" }, { kind: "env", name: "B" }]);
    expect(valueParts("plain")).toEqual([{ text: "plain" }]);
  });

  it("lets plain settings through and stops credentials", () => {
    expect(literalSecretProblem("env", "LOG_LEVEL", "debug")).toBeNull();
    expect(literalSecretProblem("env", "API_KEY", "{env:API_KEY}")).toBeNull();
    expect(literalSecretProblem("env", "API_KEY", "")).toBeNull();
    expect(literalSecretProblem("header", "Authorization", "Basic {file:/etc/creds}")).toBeNull();
    expect(literalSecretProblem("header", "Cookie", "session=1")).not.toBeNull();
    expect(serverSecretProblem(mcpServerSchema.parse({ command: "x", env: { PASSWORD: "hunter2" } }))).toMatch(/^env\.PASSWORD: /);
  });
});

describe("configured servers", () => {
  it("takes a project's entry in the place of the global one of the same name, whole", () => {
    const layers: Parameters<typeof configuredServers>[0] = [
      { scope: "global", file: "/g/bosun.json", value: { mcp: { docs: { url: "https://g/mcp", headers: { "X-Team": "g" } }, shell: { command: "sh-mcp" } } } },
      { scope: "project", file: "/p/bosun.json", value: { mcp: { docs: { command: "docs-mcp" } } } },
    ];
    expect(configuredServers(layers)).toEqual([
      { name: "docs", server: { command: "docs-mcp" }, scope: "project", file: "/p/bosun.json" },
      { name: "shell", server: { command: "sh-mcp" }, scope: "global", file: "/g/bosun.json" },
    ]);
    expect(configuredServers([{ scope: "global", file: "/g/bosun.json", value: {} }])).toEqual([]);
  });
});
