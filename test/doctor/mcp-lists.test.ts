// The MCP server lists of the agents' CLIs as doctor reads them, from what the pinned CLIs print
// (captured from Gemini CLI 0.61.0, Codex 0.171.0 and Claude Code 2.1.197 in a temp home; the
// real CLIs are asked in test/real/mcp-real.test.ts).
import { describe, expect, it } from "vitest";
import { claudeMcpServers, opencodeMcpServers, parseCodexMcpList, parseGeminiMcpList } from "../../src/doctor/probes/mcp-lists.js";
import { loadVerdict } from "../../src/doctor/loaded.js";

const GEMINI_UNTRUSTED = `Warning: MCP servers are configured but disabled because this folder is untrusted.
User-level servers are also suppressed in untrusted folders to prevent accidental side-effects.

Configured MCP servers:

○ probe: node /srv/probe.mjs /home/u/.gemini/probe-pack/started.jsonl (stdio) - Disabled
`;
const GEMINI_TRUSTED = `Configured MCP servers:

✓ probe: node /srv/probe.mjs /home/u/.gemini/probe-pack/started.jsonl (stdio) - Connected
✗ broken: /bin/false  (stdio) - Disconnected
`;
const CODEX = `[
  { "name": "probe", "enabled": true, "disabled_reason": null, "transport": { "type": "stdio", "command": "node", "args": ["x"], "env": null, "env_vars": ["PROBE_TOKEN"], "cwd": null }, "auth_status": "unsupported" },
  { "name": "off", "enabled": false, "transport": { "type": "stdio", "command": "off" } }
]`;

describe("MCP server lists", () => {
  it("Gemini CLI: connected, disconnected, and in an untrusted folder waiting for trust (not broken)", () => {
    expect(parseGeminiMcpList("", GEMINI_TRUSTED)).toEqual([{ name: "probe" }, { name: "broken", failed: "disconnected" }]);
    expect(parseGeminiMcpList(GEMINI_UNTRUSTED, "")).toEqual([{ name: "probe", waiting: expect.stringContaining("trusted folder") }]);
    expect(parseGeminiMcpList("No MCP servers configured.\n", "")).toEqual([]);
    expect(parseGeminiMcpList("something else entirely", "")).toBeNull();
  });

  it("Codex: the JSON list after its warnings; Claude Code: the init event's servers with their start status; OpenCode: its config's mcp", () => {
    expect(parseCodexMcpList(`WARNING: proceeding\n${CODEX}`)).toEqual([{ name: "probe" }, { name: "off", enabled: false }]);
    expect(parseCodexMcpList("not json")).toBeNull();
    expect(claudeMcpServers([{ name: "probe", status: "connected" }, { name: "broken", status: "failed" }, { status: "x" }])).toEqual([{ name: "probe" }, { name: "broken", failed: "it failed to start or to answer" }]);
    expect(opencodeMcpServers({ probe: { type: "local", enabled: true }, off: { type: "local", enabled: false } })).toEqual([{ name: "probe" }, { name: "off", enabled: false }]);
  });

  it("a server's verdict: loaded, waiting, not started (with what the CLI said), disabled, missing, or unchecked where the CLI has no list", () => {
    const place = (name: string) => ({ artifact: { kind: "mcp" as const, name, pack: "p", file: "settings.json" }, scope: "global" as const, rootDir: "/h/.gemini" });
    const listing = { mcpServers: [{ name: "ok" }, { name: "wait", waiting: "trust it" }, { name: "bad", failed: "disconnected" }, { name: "off", enabled: false }], errors: [] };
    expect(loadVerdict(place("ok"), listing, "gemini")).toEqual({ state: "loaded" });
    expect(loadVerdict(place("wait"), listing, "gemini")).toEqual({ state: "waiting", reason: "trust it" });
    expect(loadVerdict(place("bad"), listing, "gemini")).toEqual({ state: "not-loaded", reason: "gemini could not start it (disconnected)" });
    expect(loadVerdict(place("off"), listing, "gemini")).toEqual({ state: "not-loaded", reason: "disabled in gemini's settings" });
    expect(loadVerdict(place("gone"), listing, "gemini")).toEqual({ state: "not-loaded", reason: "gemini does not list it" });
    expect(loadVerdict(place("ok"), { errors: [] }, "x")).toEqual({ state: "unchecked", reason: "not checkable offline: x has no offline list of its MCP servers" });
  });
});
