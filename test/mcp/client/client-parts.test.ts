import { describe, expect, it } from "vitest";
import { decideApproval, type ApprovalQuestion } from "../../../src/agent/approval/approval-policy.js";
import { ApprovalGate } from "../../../src/agent/approval/approval.js";
import { unapprovedAdvice } from "../../../src/cli/run-refusals.js";
import { argumentSchema } from "../../../src/mcp/client/argument-schema.js";
import { inputSchemaProblem } from "../../../src/mcp/client/input-schema.js";
import { McpServerError } from "../../../src/mcp/client/errors.js";
import { resolveServerValues } from "../../../src/mcp/client/resolve-references.js";
import { toolApproval } from "../../../src/mcp/client/tool-approval.js";
import { readToolList } from "../../../src/mcp/client/tool-list.js";
import { modelToolNames } from "../../../src/mcp/client/tool-names.js";
import { InvalidToolResultError, toolResultText } from "../../../src/mcp/client/tool-result.js";
import type { ConfiguredServer } from "../../../src/mcp/configured-servers.js";

describe("the names the model knows MCP tools by", () => {
  it("is <server>__<tool> when a model API takes it, else a safe name with a hash, the same every run", () => {
    const names = modelToolNames([
      { server: "github", tool: "create_issue" },
      { server: "files", tool: "files.read" },
      { server: "files", tool: "files_read" },
      { server: "long", tool: "x".repeat(80) },
    ]);
    expect(names[0]).toBe("github__create_issue");
    expect(names[1]).toMatch(/^files__files_read_[0-9a-f]{8}$/);
    expect(names[2]).toBe("files__files_read");
    expect(names[3]).toMatch(/^long__x+_[0-9a-f]{8}$/);
    expect(names[3]).toHaveLength(64);
    expect(modelToolNames([{ server: "files", tool: "files.read" }])).toEqual([names[1]]);
  });
});

describe("a tool's approval", () => {
  const server = { command: "x" };
  it("allows a tool that says it only reads, asks for any other, and takes bosun.json's word first", () => {
    expect(toolApproval("s", server, "get", { readOnlyHint: true })).toMatchObject({ risk: "read", effective: "allow", source: "read-only hint", policy: null, policySetting: null });
    expect(toolApproval("s", server, "put", {})).toMatchObject({ risk: "execute", effective: "ask", source: "default" });
    expect(toolApproval("s", server, "drop", { readOnlyHint: true, destructiveHint: true })).toMatchObject({ risk: "execute", effective: "ask", source: "default" });
    expect(toolApproval("s", { ...server, approval: "deny" }, "get", { readOnlyHint: true })).toMatchObject({ effective: "deny", source: "server", policySetting: "mcp.s.approval", setting: "mcp.s.tools.get" });
    expect(toolApproval("s", { ...server, approval: "deny", tools: { get: "allow" } }, "get", {})).toMatchObject({ effective: "allow", source: "tool", policySetting: "mcp.s.tools.get" });
    expect(toolApproval("s", server, "files.read", {}).setting).toBe('mcp.s.tools."files.read"');
  });

  it("goes through the approval rules as a built-in tool's does, with its own setting in every message", async () => {
    const question = (rule: ApprovalQuestion["rule"], access: "read" | "execute" = "execute"): ApprovalQuestion => ({ tool: "s__put", access, danger: null, description: "s__put {}", rule });
    const setting = "mcp.s.tools.put";
    expect(decideApproval(question({ setting, policy: "deny", policySetting: "mcp.s.approval" }), "full-access", {}, new Set())).toEqual({ action: "deny", reason: "mcp.s.approval is deny in bosun.json" });
    expect(decideApproval(question({ setting }), "ask", {}, new Set())).toEqual({ action: "ask", grantKey: "s__put" });
    expect(decideApproval(question({ setting }), "auto-edit", {}, new Set())).toEqual({ action: "ask", grantKey: "s__put" });
    expect(decideApproval(question({ setting }), "full-access", {}, new Set())).toEqual({ action: "allow" });
    expect(decideApproval(question({ setting }, "read"), "ask", {}, new Set())).toEqual({ action: "allow" });
    expect(decideApproval(question({ setting, policy: "allow" }), "ask", {}, new Set())).toEqual({ action: "allow" });
    // A `permissions` entry of the same name is not the MCP tool's rule.
    expect(decideApproval(question({ setting }), "ask", { "s__put": "allow" }, new Set())).toEqual({ action: "ask", grantKey: "s__put" });
    const gate = new ApprovalGate({ mode: "ask", rules: {}, approver: null });
    const refused = await gate.forSubAgent("sub-agent #1").check({ ...question({ setting }), callId: "c1" }, new AbortController().signal);
    expect(refused).toMatchObject({ allowed: false, noApprover: true, message: expect.stringContaining("or set mcp.s.tools.put to allow in bosun.json.") });
  });

  it("makes the closing advice of a run name the MCP settings, not permissions", () => {
    expect(
      unapprovedAdvice(
        [
          { tool: "s__put", access: "execute", dangerous: false, sandbox: false, setting: "mcp.s.tools.put" },
          { tool: "write", access: "edit", dangerous: false, sandbox: false },
        ],
        "ask",
      ),
    ).toBe(
      '2 tool calls were refused (s__put, write): they needed approval and bosun is not attached to a terminal; to allow them: rerun in a terminal to be asked, or with --mode auto-edit (edits), or with --yes (everything but dangerous calls), or set in bosun.json "permissions": { "write": "allow" }, or set mcp.s.tools.put to "allow" in bosun.json',
    );
  });
});

describe("a server's tool list", () => {
  it("keeps the tools a model can take and says why it leaves out the others", () => {
    const object = { type: "object", properties: {} };
    const { tools, leftOut } = readToolList([
      { name: "ok", description: "fine", inputSchema: object, annotations: { readOnlyHint: true, title: "OK" } },
      { description: "no name", inputSchema: object },
      { name: "ok", inputSchema: object },
      { name: "required_string", inputSchema: { type: "object", required: "path" } },
      { name: "bad_pattern", inputSchema: { type: "object", properties: { p: { type: "string", pattern: "([" } } } },
      { name: "no_schema" },
    ]);
    expect(tools).toEqual([{ name: "ok", description: "fine", inputSchema: object, hints: { readOnlyHint: true } }]);
    expect(leftOut).toEqual([
      { name: "(tool 2)", reason: "it has no name" },
      { name: "ok", reason: "the server lists a tool of that name twice; the first is used" },
      { name: "required_string", reason: "its input schema is not valid JSON Schema: required: is not a list of property names" },
      { name: "bad_pattern", reason: "its input schema is not valid JSON Schema: properties.p.pattern: is not a regular expression" },
      { name: "no_schema", reason: "its input schema is not valid JSON Schema: the input schema is not an object" },
    ]);
    expect(inputSchemaProblem({ type: "object", properties: { when: { type: ["string", "null"], format: "date-time" } }, $defs: { x: { anyOf: [{ type: "string" }] } } })).toBeNull();
  });
});

describe("a call's arguments", () => {
  it("are checked against the tool's input schema, and reach the server as the model gave them", () => {
    const schema = argumentSchema({ type: "object", properties: { a: { type: "number" }, mode: { enum: ["fast", "slow"] }, when: { type: ["string", "null"] } }, required: ["a"] });
    expect(schema.safeParse({ a: 1, extra: "kept" })).toEqual({ success: true, data: { a: 1, extra: "kept" } });
    const issues = schema.safeParse({ mode: "medium", when: 3 }).error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(issues).toEqual(["a: Invalid input: expected number, received undefined", 'mode: Invalid option: expected one of "fast"|"slow"', "when: matches none of what it may be (expected string; expected null)"]);
    // A schema zod cannot follow is left to the server to check.
    expect(argumentSchema({ type: "object", properties: { x: { $ref: "https://example.com/x.json" } } }).safeParse({ x: 1 }).success).toBe(true);
  });
});

describe("a tool's result", () => {
  it("is its text, cut at maxOutput with a note; anything that is not a result is the server's bug", () => {
    expect(toolResultText({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }, 1000)).toEqual({ text: "a\nb", isError: false, cut: 0 });
    expect(toolResultText({ content: [] }, 1000).text).toBe("(the tool returned nothing)");
    expect(toolResultText({ content: [{ type: "video", data: "" }] }, 1000).text).toBe('[a part of type "video" not shown: bosun does not know it]');
    expect(toolResultText({ content: [{ type: "text", text: "x".repeat(1500) }], isError: true }, 1000)).toMatchObject({ isError: true, cut: 500 });
    expect(() => toolResultText({ content: [{ type: "text" }] }, 1000)).toThrow(new InvalidToolResultError("part 1 of its content is text without a text"));
    expect(() => toolResultText({ content: [], isError: "yes" }, 1000)).toThrow("its isError is not true or false");
    expect(() => toolResultText("text", 1000)).toThrow("the result is not an object");
  });
});

describe("a server's references", () => {
  const configured = (server: ConfiguredServer["server"]): ConfiguredServer => ({ name: "svc", server, scope: "project", file: "/home/me/project/bosun.json" });
  it("are resolved from bosun's environment and from files, and named for the redactor", () => {
    const resolved = resolveServerValues(configured({ url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer {env:SVC_TOKEN}", "X-Key": "{file:~/keys/svc}" } }), {
      env: { SVC_TOKEN: "tok-123456789" },
      home: "/home/me",
      readFile: (path) => (path === "/home/me/keys/svc" ? "key-from-file\n" : ""),
    });
    expect(resolved).toEqual({
      values: { Authorization: "Bearer tok-123456789", "X-Key": "key-from-file" },
      secrets: [
        { name: "SVC_TOKEN", value: "tok-123456789" },
        { name: "mcp.svc.headers.X-Key", value: "key-from-file" },
      ],
    });
  });

  it("that cannot be resolved are the server's error, naming the field and the file", () => {
    const resolve = (env: Record<string, string>) => () => resolveServerValues(configured({ command: "svc", env: { TOKEN: "{env:SVC_TOKEN}" } }), { env, home: "/home/me" });
    expect(resolve({})).toThrow(new McpServerError("svc", "~/project/bosun.json", "env.TOKEN refers to {env:SVC_TOKEN}, which is not set in bosun's environment (nor in its .env)"));
    expect(resolve({ SVC_TOKEN: "" })).toThrow("env.TOKEN refers to {env:SVC_TOKEN}, which is empty");
    expect(resolve({})).toThrow("MCP server svc (declared in ~/project/bosun.json): ");
  });
});
