import type { DashboardStatus } from "../sources.js";
import { State } from "./layout.js";

/** `#status-sections`: the `bosun status` screen: version, paths, this start's migrations, plugins, each subsystem. */
export function StatusSections(props: { status: DashboardStatus }) {
  const { status } = props;
  return (
    <section id="status-sections" aria-labelledby="status-heading">
      <h2 id="status-heading">bosun {status.version}</h2>
      <p>{status.summary}</p>
      <h3>Subsystems</h3>
      <table>
        <tbody>
          {status.sections.map((section) => (
            <tr>
              <th scope="row">{section.title}</th>
              <td>
                <State ok={section.state === "ready" ? true : section.state === "problem" ? null : false} text={section.state} />
              </td>
              <td>{section.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Startup migrations</h3>
      <ul>
        {status.migrations.map((step) => (
          <li>
            <code>{step.id}</code> {step.state}
            {step.detail ? `: ${step.detail}` : ""}
          </li>
        ))}
      </ul>
      <h3>Plugins</h3>
      {status.plugins.length === 0 ? (
        <p>none installed</p>
      ) : (
        <ul>
          {status.plugins.map((plugin) => (
            <li>
              <code>{plugin.name}</code> {plugin.state}
              {plugin.detail ? `: ${plugin.detail}` : ""}
            </li>
          ))}
        </ul>
      )}
      <h3>Paths</h3>
      <dl>
        {Object.entries(status.paths).map(([name, path]) => (
          <>
            <dt>{name}</dt>
            <dd>
              <code>{path ?? "none"}</code>
            </dd>
          </>
        ))}
      </dl>
    </section>
  );
}
