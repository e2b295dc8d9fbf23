import { z } from "zod";
import { literalSecretProblem, valueParts } from "./secret-references.js";

/** What bosun's own loop does when the model calls a tool of a server: run it, ask first, or refuse. */
export const MCP_APPROVALS = ["allow", "ask", "deny"] as const;
export type McpApproval = (typeof MCP_APPROVALS)[number];
const approvalSchema = z.enum(MCP_APPROVALS, { error: "use allow, ask or deny" });

/**
 * A server's name: it names the entry in every agent's config and prefixes its tools in bosun's
 * loop (`<server>__<tool>`), so letters, digits, `-` and `_`, never two `_` in a row.
 */
export const MCP_SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_)){0,62}[A-Za-z0-9]$|^[A-Za-z0-9]$/;
export const MCP_NAME_RULE = "use letters, digits, '-' and '_' (not two '_' in a row, not at either end), at most 64";

/** Defaults of a server's limits (seconds, characters). */
export const MCP_DEFAULTS = { startupTimeout: 30, callTimeout: 60, maxOutput: 100_000 } as const;

const text = (max: number) => z.string().min(1, "must not be empty").max(max);
const secondsUpTo = (max: number) => z.number().positive("use a number of seconds above 0").max(max, `use at most ${max} seconds`);

/** Values that may mix text and `{env:NAME}` / `{file:PATH}` references, with the references checked. */
const referenceText = z
  .string()
  .max(4096)
  .superRefine((value, ctx) => {
    try {
      valueParts(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  });

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

const NOT_BOTH = "give command (a server bosun starts) or url (a server reached over HTTP), not both";

const common = {
  /** Off: kept in the config (and synced as disabled where the agent has the switch), not started. */
  enabled: z.boolean().optional(),
  /** Seconds to wait for the server to start and answer `initialize`. */
  startupTimeout: secondsUpTo(600).optional(),
  /** Seconds one tool call may take. */
  callTimeout: secondsUpTo(3600).optional(),
  /** The most characters of one tool result the model sees (the rest is cut, with a note). */
  maxOutput: z.number().int("use a whole number").min(1000, "use 1000 or more").max(10_000_000).optional(),
  /** bosun's loop: the approval of this server's tools (default: ask, allow for tools that say they only read). */
  approval: approvalSchema.optional(),
  /** bosun's loop: the approval of single tools, by the server's name for them. */
  tools: z.record(text(128), approvalSchema).optional(),
};

/** A server started as a process that speaks MCP on its stdin and stdout. */
export const stdioServerSchema = z
  .object({
    command: text(4096),
    args: z.array(z.string().max(4096)).max(256).optional(),
    /** Variables set for the server; values may only refer to secrets (`{env:NAME}`, `{file:PATH}`). */
    env: z.record(z.string().regex(ENV_NAME, "use a variable name: letters, digits and '_', not starting with a digit"), referenceText).optional(),
    cwd: text(4096).optional(),
    url: z.never({ error: NOT_BOTH }).optional(),
    ...common,
  })
  .strict();

/** A server reached over streamable HTTP. */
export const remoteServerSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: "use an http:// or https:// URL" }),
    /** Headers sent with every request; values may only refer to secrets (`Bearer {env:TOKEN}`). */
    headers: z.record(z.string().regex(HEADER_NAME, "use an HTTP header name"), referenceText).optional(),
    command: z.never({ error: NOT_BOTH }).optional(),
    ...common,
  })
  .strict();

/**
 * One MCP server: a `command` to start, or a `url` to reach (never both). A wrong field is named
 * from the kind the entry meant (`url` given: a remote server; else one bosun starts).
 */
export const mcpServerSchema = z.union([stdioServerSchema, remoteServerSchema], {
  error: (issue) => {
    const input = issue.input;
    if (typeof input !== "object" || input === null || Array.isArray(input)) return "use an object with command (a server bosun starts) or url (a server reached over HTTP)";
    if ("command" in input && "url" in input) return NOT_BOTH;
    if (!("command" in input) && !("url" in input)) return "give either command (a server bosun starts) or url (a server reached over HTTP)";
    const branch = (issue as { errors?: { path: PropertyKey[]; message: string }[][] }).errors?.["url" in input ? 1 : 0];
    const first = branch?.find((entry) => entry.message) ?? branch?.[0];
    if (!first) return undefined;
    return first.path.length > 0 ? `${first.path.map(String).join(".")}: ${first.message}` : first.message;
  },
});

export type StdioServer = z.infer<typeof stdioServerSchema>;
export type RemoteServer = z.infer<typeof remoteServerSchema>;
export type McpServer = StdioServer | RemoteServer;

export const isRemote = (server: McpServer): server is RemoteServer => "url" in server;

/**
 * Why a server entry holds a secret in clear, as `<field>: <problem>`, or null: every env value
 * and header is checked (`literalSecretProblem`).
 */
export function serverSecretProblem(server: McpServer): string | null {
  const entries: [string, "env" | "header", string, string][] = isRemote(server)
    ? Object.entries(server.headers ?? {}).map(([name, value]) => [`headers.${name}`, "header", name, value])
    : Object.entries(server.env ?? {}).map(([name, value]) => [`env.${name}`, "env", name, value]);
  for (const [field, kind, name, value] of entries) {
    let problem: string | null;
    try {
      problem = literalSecretProblem(kind, name, value);
    } catch {
      continue; // a reference bosun cannot follow: the field's own check reports it
    }
    if (problem) return `${field}: ${problem}`;
  }
  return null;
}

/** The texts of a started server that name programs and folders (its command, each arg, its cwd), by field: where placeholders may stand. */
export function commandTexts(server: McpServer): [string, string][] {
  if (isRemote(server)) return [];
  return [["command", server.command], ...(server.args ?? []).map((arg, index): [string, string] => [`args[${index}]`, arg]), ...(server.cwd === undefined ? [] : [["cwd", server.cwd] as [string, string]])];
}
