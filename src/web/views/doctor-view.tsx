import type { RuntimeDoctor } from "../../doctor/doctor.js";
import { displayPath } from "../../kernel/paths.js";
import type { DoctorDone, DoctorState } from "../doctor-job.js";
import { State } from "./layout.js";

const time = (at: number) => new Date(at).toISOString().replace("T", " ").slice(0, 19);

/**
 * `#doctor-verdicts`: `bosun doctor` from the page: Run (one run at a time; it asks each agent's
 * own CLI, offline, up to 20 s each), then per agent with a bosun pack its CLI, sign-in, whether
 * the files are still what bosun wrote, what the CLI loaded, and each problem with what to do.
 */
export function DoctorVerdicts(props: { doctor: DoctorState; home: string }) {
  const { doctor } = props;
  const shown = (path: string) => displayPath(path, props.home);
  const last = doctor.state === "done" ? doctor : doctor.state === "none" ? null : doctor.last;
  return (
    <section id="doctor-verdicts" aria-labelledby="doctor-heading" aria-busy={doctor.state === "running" ? "true" : "false"} data-at={last ? String(last.at) : undefined}>
      <h2 id="doctor-heading">Doctor</h2>
      <p>
        Asks each agent&apos;s own CLI (offline, up to 20 s each) whether it loaded what bosun installed, and checks the files are still what bosun wrote.{" "}
        <button type="button" hx-post="/agents/doctor" hx-target="#doctor-verdicts" hx-swap="outerHTML" disabled={doctor.state === "running"}>
          {doctor.state === "running" ? "Running…" : last ? "Run the doctor again" : "Run the doctor"}
        </button>
      </p>
      {doctor.state === "running" ? <p role="status">Running since {time(doctor.startedAt)}…</p> : null}
      {doctor.state === "failed" ? (
        <p>
          <State ok={false} text={`the doctor could not run: ${doctor.message}`} />
        </p>
      ) : null}
      {last ? <Verdicts done={last} shown={shown} /> : doctor.state === "none" ? <p>Not run since this server started.</p> : null}
    </section>
  );
}

function Verdicts(props: { done: DoctorDone; shown: (path: string) => string }) {
  const { report, at, ms } = props.done;
  const checked = report.runtimes.filter((runtime) => runtime.roots.length > 0 || runtime.cli !== null);
  return (
    <>
      <p>
        {report.ok ? <State ok={true} text="no problems" /> : <State ok={false} text={`${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}`} />} · run at {time(at)} in {(ms / 1000).toFixed(1)} s ·
        the session hook&apos;s status line {report.hook.generatedAt ? `was last made ${report.hook.generatedAt.replace("T", " ").slice(0, 19)}` : "has not been made yet"}
      </p>
      {checked.length === 0 ? (
        <p>No pack of bosun is installed in any agent: nothing to check.</p>
      ) : (
        <table aria-label="Doctor's verdicts">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">CLI</th>
              <th scope="col">Signed in</th>
              <th scope="col">Files</th>
              <th scope="col">Loaded</th>
              <th scope="col">What to do</th>
            </tr>
          </thead>
          <tbody>
            {checked.map((runtime) => (
              <Row runtime={runtime} problems={report.problems.filter((problem) => problem.runtime === runtime.runtime).map((problem) => problem.text)} shown={props.shown} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Row(props: { runtime: RuntimeDoctor; problems: string[]; shown: (path: string) => string }) {
  const { runtime } = props;
  const loaded = runtime.artifacts.filter((artifact) => artifact.state === "loaded").length;
  const intact = runtime.roots.every((root) => root.intact.ok);
  return (
    <tr id={`doctor-${runtime.runtime}`}>
      <th scope="row">
        {runtime.title} <span class="id">{runtime.runtime}</span>
      </th>
      <td>{runtime.cli === null ? "—" : runtime.cli.installed ? <code>{props.shown(runtime.cli.path ?? runtime.cli.binary)}</code> : <State ok={false} text={`${runtime.cli.binary} not installed`} />}</td>
      <td>{runtime.signIn === null ? "—" : runtime.signIn.connected ? <State ok={true} text="signed in" /> : <State ok={false} text="not signed in" />}</td>
      <td>{runtime.roots.length === 0 ? "—" : intact ? <State ok={true} text="intact" /> : <State ok={false} text="changed" />}</td>
      <td>{runtime.artifacts.length === 0 ? "—" : <State ok={loaded === runtime.artifacts.length ? true : runtime.probe?.failure ? false : null} text={`${loaded} of ${runtime.artifacts.length}`} />}</td>
      <td>
        {props.problems.length === 0 ? (
          <State ok={true} text="nothing" />
        ) : (
          <ul>
            {props.problems.map((text) => (
              <li>{text}</li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
