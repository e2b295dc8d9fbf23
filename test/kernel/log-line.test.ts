// One line of bosun's log: the JSON-lines shape pino writes, for any value a caller logs.
import { describe, expect, it } from "vitest";
import { logLine } from "../../src/kernel/log-line.js";

const parsed = (line: string) => JSON.parse(line) as Record<string, unknown>;

describe("logLine", () => {
  it("writes level, time and pid first, the fields, then the message, on one line", () => {
    const line = logLine("warn", "a catalog listener failed", { error: "boom", count: 2 }, 1_700_000_000_123, 42);
    expect(line).toBe('{"level":40,"time":1700000000123,"pid":42,"error":"boom","count":2,"msg":"a catalog listener failed"}\n');
    expect(logLine("info", "started", {}, 1, 2)).toBe('{"level":30,"time":1,"pid":2,"msg":"started"}\n');
    expect(parsed(logLine("error", "x", {}, 1, 2)).level).toBe(50);
  });

  it("keeps a message or field with newlines, quotes and control characters on its one line", () => {
    const line = logLine("info", 'two\nlines "quoted"\u0007', { path: "a\r\nb" }, 1, 2);
    expect(line.indexOf("\n")).toBe(line.length - 1);
    expect(parsed(line)).toMatchObject({ msg: 'two\nlines "quoted"\u0007', path: "a\r\nb" });
  });

  it("logs errors, big integers and values that hold themselves without throwing", () => {
    const error = new TypeError("bad input");
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    const line = parsed(logLine("error", "failed", { error, size: 12n, loop, skipped: undefined, fn: () => 1 }, 1, 2));
    expect(line.error).toMatchObject({ type: "TypeError", message: "bad input", stack: expect.stringContaining("bad input") });
    expect(line.size).toBe("12");
    expect(line.loop).toEqual({ name: "loop", self: "[Circular]" });
    expect(line).not.toHaveProperty("skipped");
    expect(line).not.toHaveProperty("fn");
  });

  it("marks only a true loop as circular: the same object twice side by side is written twice", () => {
    const shared = { id: 1 };
    const line = parsed(logLine("info", "m", { a: shared, b: shared, list: [shared, [shared]] }, 1, 2));
    expect(line).toMatchObject({ a: { id: 1 }, b: { id: 1 }, list: [{ id: 1 }, [{ id: 1 }]] });
  });
});
