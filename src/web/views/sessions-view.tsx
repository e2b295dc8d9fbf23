import type { SessionSummary } from "../../agent/session/list.js";
import type { TranscriptEntry } from "../sources.js";
import { State } from "./layout.js";

/** `#sessions-list`: bosun run's sessions, newest first, with the ones a run works on now (`live`). */
export function SessionsList(props: { sessions: SessionSummary[]; live: ReadonlySet<string> }) {
  return (
    <section id="sessions-list" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">
        {props.sessions.length} session{props.sessions.length === 1 ? "" : "s"}
      </h2>
      {props.sessions.length === 0 ? (
        <p>No session yet: `bosun run "a task"` starts one.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Model</th>
              <th scope="col">Folder</th>
              <th scope="col">Updated</th>
              <th scope="col">Now</th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((session) => (
              <tr>
                <th scope="row">
                  <a href={`/sessions/${encodeURIComponent(session.id)}`}>{session.title || session.id}</a>
                </th>
                <td>
                  <code>
                    {session.model.providerID}/{session.model.modelID}
                  </code>
                </td>
                <td>
                  <code>{session.workdir}</code>
                </td>
                <td>
                  <time datetime={session.updatedAt}>{session.updatedAt.replace("T", " ").slice(0, 19)}</time>
                </td>
                <td>{props.live.has(session.id) ? <State ok={true} text="running" /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * `#transcript-<id>`: one session's transcript. Everything the model or a tool wrote is shown as
 * text (escaped by hono/jsx, never as markup), tool calls and results folded.
 */
export function Transcript(props: { id: string; entries: TranscriptEntry[] }) {
  return (
    <section id={`transcript-${props.id}`} aria-label="Transcript" class="transcript">
      {props.entries.length === 0 ? <p>Nothing in this session yet.</p> : null}
      <ol>
        {props.entries.map((entry) =>
          entry.kind === "tool-call" || entry.kind === "tool-result" ? (
            <li class={entry.kind}>
              <details>
                <summary>
                  {entry.kind === "tool-call" ? "tool call" : "tool result"} <code>{entry.tool ?? ""}</code>
                </summary>
                <pre>{entry.text}</pre>
              </details>
            </li>
          ) : (
            <li class={entry.kind}>
              <p class="who">{entry.kind === "user" ? "you" : entry.kind === "assistant" ? "bosun" : "notice"}</p>
              <pre>{entry.text}</pre>
            </li>
          ),
        )}
      </ol>
    </section>
  );
}
