import { z } from "zod";

/** The most a pack file may be limited to (1 GiB): bosun reads a pack's files whole. */
const MAX_LIMIT = 1024 * 1024 * 1024;

/**
 * `bosun.json` `install`: `max_pack_file_bytes`, the largest file a pack may hold (default
 * 64 MiB, at most 1 GiB); a bigger one is refused by name before anything is written.
 */
export const installConfigSchema = z
  .object({
    max_pack_file_bytes: z.number().int("use a whole number of bytes").min(1, "use 1 or more").max(MAX_LIMIT, `use at most ${MAX_LIMIT}`).optional(),
  })
  .strict();
