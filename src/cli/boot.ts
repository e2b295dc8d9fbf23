import { startBosun, type Boot, type BootOptions } from "../boot/start.js";
import { createFileLog } from "../boot/log.js";
import { writeLine, type Output } from "./output.js";

/**
 * Starts bosun for a command. When the startup migrations changed something, each change is
 * written to the log and announced on stderr, with any warnings, so a moved file is never a
 * surprise; a start with nothing to migrate prints and writes nothing.
 */
export async function bootForCommand(output: Output, options: BootOptions = {}, announce = true): Promise<Boot> {
  const boot = await startBosun({ env: output.env, ...options });
  const { migrations } = boot;
  if (migrations.changed) {
    const log = createFileLog(boot.paths.state);
    const say = (line: string) => announce && writeLine(output.stderr, line);
    for (const step of migrations.steps) {
      for (const action of step.actions) {
        log.info("startup migration applied", { step: step.id, action: action.describe });
        say(`bosun: ${step.id}: ${action.describe}`);
      }
      for (const note of step.notes) {
        if (note.level !== "warn") continue;
        log.warn("startup migration note", { step: step.id, note: note.message });
        say(`bosun: ${step.id}: ${note.message}`);
      }
    }
  }
  return boot;
}
