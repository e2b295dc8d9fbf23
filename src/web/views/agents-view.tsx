import type { AgentReport } from "../../runtimes/collect-status.js";
import { displayPath } from "../../kernel/paths.js";
import { State } from "./layout.js";

/** `#agents-table`: the agents, installed, signed in, how and where (the truth of `bosun agents`). */
export function AgentsTable(props: { agents: AgentReport[]; home: string }) {
  const shown = (path: string) => displayPath(path, props.home);
  return (
    <section id="agents-table" aria-labelledby="agents-heading">
      <h2 id="agents-heading">
        {props.agents.filter((agent) => agent.auth.connected).length} of {props.agents.length} agents signed in, {props.agents.filter((agent) => agent.installed).length} installed
      </h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Installed</th>
            <th scope="col">Signed in</th>
            <th scope="col">How</th>
            <th scope="col">Where</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.agents.map((agent) => (
            <tr id={`agent-${agent.id}`}>
              <th scope="row">
                {agent.title} <span class="id">{agent.id}</span>
              </th>
              <td>{agent.installed ? <State ok={true} text="installed" /> : <State ok={false} text={`not installed (${agent.installHint})`} />}</td>
              <td>{agent.auth.error ? <State ok={null} text={`unreadable: ${agent.auth.error}`} /> : agent.auth.connected ? <State ok={true} text="signed in" /> : <State ok={false} text="not signed in" />}</td>
              <td>{agent.auth.connected ? agent.auth.mode || "—" : agent.loginHint}</td>
              <td>
                <code>{agent.auth.authPath ? shown(agent.auth.authPath) : "—"}</code>
              </td>
              <td>
                {agent.canDisconnect && agent.auth.connected ? (
                  <button type="button" hx-post={`/agents/${agent.id}/disconnect`} hx-target="#agents-table" hx-swap="outerHTML" hx-confirm={`Disconnect ${agent.title}? bosun removes the sign-in it keeps for it${agent.auth.authPath ? ` (${shown(agent.auth.authPath)})` : ""}.`}>
                    Disconnect<span class="visually-hidden"> {agent.title}</span>
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
