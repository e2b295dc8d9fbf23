import { APPROVAL_MODES, type ApprovalMode } from "../agent/approval/approval-policy.js";
import { UserError } from "../kernel/errors.js";

/** The approval flags a command takes: `--mode <mode>` and `-y, --yes` (full-access). */
export interface ApprovalModeFlags {
  mode?: string;
  yes?: boolean;
}

/**
 * The approval mode the flags ask for (`bosun run`, `bosun mcp serve`), or undefined when they
 * ask for none (bosun.json `permissions.mode` decides then). `--yes` is full-access, so it
 * cannot be combined with another mode.
 */
export function approvalModeFlag(flags: ApprovalModeFlags): ApprovalMode | undefined {
  if (flags.mode !== undefined && !(APPROVAL_MODES as readonly string[]).includes(flags.mode)) {
    throw new UserError(`--mode must be one of ${APPROVAL_MODES.join(", ")}, not ${JSON.stringify(flags.mode)}`);
  }
  if (flags.yes && flags.mode !== undefined && flags.mode !== "full-access") throw new UserError(`--yes means --mode full-access; it cannot be combined with --mode ${flags.mode}`);
  return flags.yes ? "full-access" : (flags.mode as ApprovalMode | undefined);
}
