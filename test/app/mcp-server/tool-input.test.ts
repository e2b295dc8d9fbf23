import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ToolInputError } from "../../../src/app/mcp-server/errors.js";
import { checkToolInput, inputJsonSchema } from "../../../src/app/mcp-server/tool-input.js";
import type { ServerTool } from "../../../src/app/mcp-server/tool.js";
import { SERVER_TOOLS } from "../../../src/app/mcp-server/tools.js";

const tool: ServerTool = {
  name: "sample",
  title: "Sample",
  description: "A tool for the test.",
  input: z.object({ count: z.number().int().min(1).max(5).optional(), mode: z.enum(["a", "b"]).optional(), names: z.array(z.string()).optional() }).strict(),
  annotations: { readOnlyHint: true },
  call: async () => ({ data: {}, text: "" }),
};

function problem(args: unknown): string {
  try {
    checkToolInput(tool, args);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolInputError);
    return (error as Error).message;
  }
  throw new Error("the input was taken");
}

describe("a tool's input", () => {
  it("is taken as the schema parses it; no arguments at all are an empty object", () => {
    expect(checkToolInput(tool, { count: 2, mode: "a" })).toEqual({ count: 2, mode: "a" });
    expect(checkToolInput(tool, undefined)).toEqual({});
  });

  it("is refused in one line: the tool, the first wrong argument, what it takes, and how many more problems", () => {
    expect(problem({ count: "2" })).toBe("sample: count: expected number, received string");
    expect(problem({ mode: "c" })).toBe('sample: mode: expected one of "a"|"b"');
    expect(problem({ count: 9, names: [1] })).toBe("sample: count: Too big: expected number to be <=5 (and 1 more problem)");
    expect(problem({ names: ["x", 2, 3] })).toBe("sample: names.1: expected string, received number (and 1 more problem)");
    expect(problem({ other: true })).toBe('sample: Unrecognized key: "other"');
    expect(problem([1])).toBe("sample: expected object, received array");
    for (const args of [{ count: "2" }, { count: 9, names: [1] }, "text"]) expect(problem(args)).not.toContain("\n");
  });

  it("is shown to callers as a JSON Schema object, for every tool of the server", () => {
    expect(inputJsonSchema(tool)).toMatchObject({ type: "object", additionalProperties: false, properties: { count: { type: "integer", minimum: 1, maximum: 5 }, mode: { enum: ["a", "b"] } } });
    for (const serverTool of SERVER_TOOLS) expect(inputJsonSchema(serverTool)).toMatchObject({ type: "object", additionalProperties: false });
  });
});
