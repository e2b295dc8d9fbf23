import type { Command } from "commander";
import { bootForCommand } from "./boot.js";
import { columns, styler, writeJson, writeLine, type Output } from "./output.js";

export function registerSessions(program: Command, output: Output): void {
  const sessions = program
    .command("sessions")
    .description("list the agent's sessions (bosun run), newest first")
    .option("--json", "print the list as JSON")
    .action(async (options: { json?: boolean }) => {
      const boot = await bootForCommand(output, { skipConfig: true });
      const [{ FileSessionStore }, { sessionsDir }, { shortTime }] = await Promise.all([
        import("../agent/session/store.js"),
        import("../agent/session/list.js"),
        import("../agent/session/transcript.js"),
      ]);
      const list = new FileSessionStore(sessionsDir(boot.paths)).list();
      if (options.json) return writeJson(output, { sessions: list });
      const style = styler(output);
      if (list.length === 0) return writeLine(output.stdout, style("dim", 'no sessions yet; start one with bosun run "…"'));
      const rows = [["ID", "UPDATED", "MODEL", "PROMPT"].map((h) => style("bold", h))];
      for (const s of list) rows.push([s.id, shortTime(s.updatedAt), `${s.model.providerID}/${s.model.modelID}`, s.title || style("dim", "(no prompt)")]);
      for (const line of columns(rows, "")) writeLine(output.stdout, line);
    });

  sessions
    .command("show")
    .description("print a session as a readable transcript")
    .argument("<id>", "the session id, or a unique start of it")
    .option("--json", "print the session's header and events as JSON")
    .action(async (id: string, options: { json?: boolean }) => {
      const boot = await bootForCommand(output, { skipConfig: true });
      const [{ FileSessionStore }, { sessionsDir }, { transcriptLines }] = await Promise.all([
        import("../agent/session/store.js"),
        import("../agent/session/list.js"),
        import("../agent/session/transcript.js"),
      ]);
      const session = new FileSessionStore(sessionsDir(boot.paths)).read(id);
      if (options.json) return writeJson(output, { file: session.file, header: session.header, events: session.events, tornTail: session.tornTail });
      for (const line of transcriptLines(session, styler(output))) writeLine(output.stdout, line);
    });
}
