import type { PendingApproval, RunControlState } from "../../app/run-control/protocol.js";
import type { LiveSubagent } from "../../agent/subagents/live-tree.js";
import { State } from "./layout.js";

/** The id of a session's live panel (a session id is letters, digits and dashes). */
export const liveRunId = (session: string) => `live-run-${session}`;

/**
 * `#live-run-<session>`: the `bosun run` working on this session now, if one is: its turn, the
 * approval questions it waits on (answered here as on its terminal: once, for this session, or
 * deny), its sub-agent tree (each one's status, turns, tokens, time and current call; Cancel one, or
 * all), and Stop. `now` is the clock the running times are shown against.
 */
export function LiveRun(props: { session: string; run: RunControlState | null; now: number }) {
  const { run, session } = props;
  const id = liveRunId(session);
  const turn = run?.turn?.session === session ? run.turn : null;
  if (!run || !turn) {
    return (
      <section id={id} aria-label="Live run" class="live-run">
        <p class="id">No bosun run is working on this session now. This page shows the next one as it starts.</p>
      </section>
    );
  }
  const base = `/sessions/${encodeURIComponent(session)}`;
  const running = turn.ended === null;
  const subagents = ordered(run.subagents);
  const anyRunning = subagents.some((agent) => agent.status === "running");
  return (
    <section id={id} aria-labelledby={`${id}-heading`} class="live-run">
      <h2 id={`${id}-heading`}>Live</h2>
      <p>
        {running ? <State ok={true} text="running" /> : <State ok={turn.ended?.reason === "completed" ? true : null} text={`turn ended (${turn.ended?.reason ?? ""})`} />} · <code>{turn.model}</code> · {turn.mode} mode · bosun run pid {run.pid}
        {run.terminal ? " · on a terminal (its questions are asked there too; the first answer counts)" : ""}
        {running ? (
          <>
            {" "}
            <button type="button" hx-post={`${base}/stop`} hx-target={`#${id}`} hx-swap="outerHTML" hx-confirm="Stop this turn? bosun stops the model and every running command, as Ctrl-C would; the session is saved.">
              Stop the turn
            </button>
          </>
        ) : null}
      </p>
      {run.approvals.map((approval) => (
        <Question base={base} target={id} approval={approval} />
      ))}
      <h3>Sub-agents</h3>
      {subagents.length === 0 ? (
        <p>None started in this turn.</p>
      ) : (
        <>
          <table aria-label="Sub-agent tree">
            <thead>
              <tr>
                <th scope="col">Sub-agent</th>
                <th scope="col">Status</th>
                <th scope="col">Turns</th>
                <th scope="col">Tokens in / out</th>
                <th scope="col">Time</th>
                <th scope="col">Now</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {subagents.map((agent) => (
                <tr id={`subagent-${agent.seq}`} data-status={agent.status}>
                  <th scope="row" class={`depth-${Math.min(agent.depth, 5)}`}>
                    #{agent.seq} <span class="id">{agent.kind === "bosun" ? "" : `${agent.kind} · `}task {agent.task}/{agent.tasks}</span> {agent.prompt}
                  </th>
                  <td>
                    <State ok={agent.status === "running" || agent.status === "completed" ? true : agent.status === "cancelled" || agent.status === "stopped" ? null : false} text={agent.status} />
                    {agent.error ? <span class="id"> {agent.error}</span> : null}
                  </td>
                  <td>{agent.turns}</td>
                  <td>
                    {agent.tokens.input.toLocaleString("en-US")} / {agent.tokens.output.toLocaleString("en-US")}
                  </td>
                  <td>{seconds(agent.ms ?? props.now - agent.startedAt)}</td>
                  <td>{agent.activity ? <code>{agent.activity}</code> : "—"}</td>
                  <td>
                    {agent.status === "running" && running ? (
                      <button type="button" hx-post={`${base}/subagents/${encodeURIComponent(agent.id)}/cancel`} hx-target={`#${id}`} hx-swap="outerHTML">
                        Cancel<span class="visually-hidden"> sub-agent #{agent.seq}</span>
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {anyRunning && running ? (
            <p>
              <button type="button" hx-post={`${base}/subagents/cancel`} hx-target={`#${id}`} hx-swap="outerHTML" hx-confirm="Cancel every sub-agent of this turn, and the tasks waiting to start? The agent that started them goes on and is told.">
                Cancel all sub-agents
              </button>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** One approval question, with the three answers the terminal gives. */
function Question(props: { base: string; target: string; approval: PendingApproval }) {
  const { approval } = props;
  const who = approval.agent ? `${approval.agent}: ` : "";
  const head = approval.escape ? `${who}${approval.tool} asks for more than the sandbox allows` : approval.danger ? `${who}${approval.tool} wants to run something dangerous` : `${who}${approval.tool} needs your approval`;
  const headingId = `question-${approval.id}`;
  return (
    <form class="question" aria-labelledby={headingId} hx-post={`${props.base}/approvals/${approval.id}`} hx-target={`#${props.target}`} hx-swap="outerHTML">
      <h3 id={headingId}>{head}</h3>
      {approval.escape ? <p>It {approval.escape}. Only you can allow that: no mode or rule does.</p> : null}
      {approval.danger ? <p>It {approval.danger}.</p> : null}
      <p>
        <code>{approval.description}</code>
      </p>
      {approval.preview ? <pre>{approval.preview}</pre> : null}
      {approval.waiting > 0 ? (
        <p class="id">
          {approval.waiting} more question{approval.waiting === 1 ? "" : "s"} waiting
        </p>
      ) : null}
      <p class="answers">
        <button type="submit" name="answer" value="once">
          Allow once
        </button>{" "}
        <button type="submit" name="answer" value="session">
          Allow for this session
        </button>{" "}
        <button type="submit" name="answer" value="deny">
          Deny
        </button>
      </p>
    </form>
  );
}

/** `#approvals-banner`, on every page: the questions runs wait on, each with a link to its session. */
export function ApprovalsBanner(props: { runs: readonly RunControlState[] }) {
  const waiting = props.runs.flatMap((run) => (run.turn ? run.approvals.map((approval) => ({ approval, session: run.turn!.session })) : []));
  return (
    <aside id="approvals-banner" aria-label="Questions waiting" class={waiting.length > 0 ? "banner" : "banner empty"}>
      {waiting.length > 0 ? (
        <p>
          {waiting.length === 1 ? "A question waits" : `${waiting.length} questions wait`} for your approval:{" "}
          {waiting.map(({ approval, session }, index) => (
            <>
              {index > 0 ? ", " : ""}
              <a href={`/sessions/${encodeURIComponent(session)}#question-${approval.id}`}>
                {approval.agent ? `${approval.agent}: ` : ""}
                {approval.tool}
              </a>
            </>
          ))}
        </p>
      ) : null}
    </aside>
  );
}

/** Sub-agents depth first: each under the one that started it, in the order they started. */
function ordered(agents: readonly LiveSubagent[]): LiveSubagent[] {
  const children = new Map<string | null, LiveSubagent[]>();
  const ids = new Set(agents.map((agent) => agent.id));
  for (const agent of agents) {
    const parent = agent.parent !== null && ids.has(agent.parent) ? agent.parent : null;
    children.set(parent, [...(children.get(parent) ?? []), agent]);
  }
  const out: LiveSubagent[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null) => {
    for (const agent of (children.get(parent) ?? []).sort((a, b) => a.seq - b.seq)) {
      out.push(agent);
      if (seen.has(agent.id)) continue;
      seen.add(agent.id);
      walk(agent.id);
    }
  };
  walk(null);
  return out;
}

function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
