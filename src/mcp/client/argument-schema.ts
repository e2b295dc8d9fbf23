import { z } from "zod";

/**
 * The check of a call's arguments against a tool's input schema, as a zod schema (what bosun's
 * loop checks every tool call with, so a wrong argument gets the same one line as for a built-in
 * tool: `path: expected string, received number`). The JSON Schema is turned into zod on the
 * first call, not when the server starts; a schema zod cannot follow (an external `$ref`, a
 * keyword it does not know) is not checked here, and the server checks the call itself. The
 * arguments reach the server as the model gave them: the check changes nothing in them.
 */
export function argumentSchema(inputSchema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  let check: z.ZodType | null | undefined;
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    check ??= converted(inputSchema);
    if (!check) return;
    const result = check.safeParse(value);
    if (result.success) return;
    for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issueMessage(issue), path: issue.path });
  });
}

function converted(inputSchema: Record<string, unknown>): z.ZodType | null {
  try {
    return z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return null;
  }
}

/** A union's bare "Invalid input" says what it wanted instead. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const wanted = issue.errors.map((branch) => branch[0]?.message.replace(/^Invalid input: /, "").replace(/, received .*$/, "")).filter(Boolean);
    return `matches none of what it may be (${[...new Set(wanted)].join("; ")})`;
  }
  return issue.message;
}
