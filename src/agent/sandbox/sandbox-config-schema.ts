import { z } from "zod";

export const SANDBOX_MODES = ["auto", "required", "off"] as const;
/** `auto`: sandbox where bubblewrap works, else the command checker alone; `required`: no tools without it; `off`: no sandbox (unsafe). */
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export const SANDBOX_NETWORK = ["off", "on"] as const;
export type SandboxNetwork = (typeof SANDBOX_NETWORK)[number];

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "use an environment variable name (letters, digits, _)");
const folder = z
  .string()
  .min(1)
  .refine((path) => path.startsWith("/") || path === "~" || path.startsWith("~/"), "use an absolute path or one starting with ~/");
const bytes = (min: number) => z.number().int("use a whole number of bytes").min(min, `use ${min} or more`);

/**
 * `bosun.json` `sandbox`: how the agent's tool processes are contained (see the README's Sandbox
 * section). Whether the folders exist is checked when a run starts, not here: a folder may be
 * created after the config is written.
 */
export const sandboxConfigSchema = z
  .object({
    mode: z.enum(SANDBOX_MODES).optional(),
    network: z.enum(SANDBOX_NETWORK).optional(),
    /** Folders tool processes may write besides the working folder and their private temp folder. */
    writable: z.array(folder).optional(),
    /** Credential files the tools may read anyway (they are masked otherwise). */
    readable: z.array(folder).optional(),
    /** Secret-holding environment variables passed to tools anyway, by name. */
    env: z.array(envName).optional(),
    /** Spill files of one call's output are cut here (default 64 MiB). */
    max_output_bytes: bytes(1024).optional(),
    /** All spilled output of one run's agent tree (default 1 GiB). */
    max_session_output_bytes: bytes(1024).optional(),
    /** The largest file a command may write (default 1 GiB). */
    max_file_bytes: bytes(1024).optional(),
  })
  .strict();

export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
