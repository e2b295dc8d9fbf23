import { z } from "zod";
import { APPROVAL_MODES, APPROVAL_POLICIES } from "./approval-policy.js";

const approvalPolicySchema = z.enum(APPROVAL_POLICIES);

/**
 * `bosun.json` `permissions`: a policy per tool (allow | ask | deny), the policy for commands the
 * dangerous-command detector flags (`dangerous`, default ask), and the default mode. Tool keys
 * are the built-in tools and `agent` (sub-agents); any other key is reported as a typo.
 */
export const permissionsSchema = z
  .object({
    mode: z.enum(APPROVAL_MODES).optional(),
    dangerous: approvalPolicySchema.optional(),
    read: approvalPolicySchema.optional(),
    write: approvalPolicySchema.optional(),
    edit: approvalPolicySchema.optional(),
    glob: approvalPolicySchema.optional(),
    grep: approvalPolicySchema.optional(),
    bash: approvalPolicySchema.optional(),
    ask_user: approvalPolicySchema.optional(),
    plan: approvalPolicySchema.optional(),
    agent: approvalPolicySchema.optional(),
  })
  .strict();

export type PermissionsConfig = z.infer<typeof permissionsSchema>;

/** `bosun.json` `secrets`: names of environment variables whose values are secret. */
export const secretsSchema = z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "use an environment variable name (letters, digits, _)"));
