import type { RootStatus } from "../../install/records/install-status.js";
import { displayPath } from "../../kernel/paths.js";
import { State } from "./layout.js";

/** `#installs-table`: per runtime and scope, the packs bosun installed and their drift (the truth of `bosun install --status`). */
export function InstallsTable(props: { runtimes: RootStatus[]; home: string }) {
  const shown = (path: string) => displayPath(path, props.home);
  return (
    <section id="installs-table" aria-labelledby="installs-heading">
      <h2 id="installs-heading">
        Packs installed in {props.runtimes.filter((root) => root.installed).length} of {props.runtimes.length} agent folders
      </h2>
      {props.runtimes.length === 0 ? (
        <p>No coding agent folder found. `bosun install --runtime R --scope global` installs a pack.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Runtime</th>
              <th scope="col">Scope</th>
              <th scope="col">Folder</th>
              <th scope="col">Packs</th>
              <th scope="col">Drift</th>
            </tr>
          </thead>
          <tbody>
            {props.runtimes.map((root) => (
              <tr>
                <th scope="row">{root.title}</th>
                <td>{root.key === "main" ? root.scope : `${root.scope} (${root.key})`}</td>
                <td>
                  <code>{shown(root.dir)}</code>
                </td>
                <td>{root.installed ? root.packs.map((pack) => `${pack.name} ${pack.version} (${pack.files} files)`).join(", ") : root.exists ? "no pack installed" : "no folder"}</td>
                <td>{driftCell(root)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function driftCell(root: RootStatus) {
  if (root.interrupted) return <State ok={null} text="an install was interrupted: run bosun install" />;
  const drift = root.drift;
  if (!root.installed || !drift) return "—";
  const words = [
    ...(drift.modified.length > 0 ? [`${drift.modified.length} edited (${drift.modified.join(", ")})`] : []),
    ...(drift.missing.length > 0 ? [`${drift.missing.length} deleted (${drift.missing.join(", ")})`] : []),
    ...(drift.config.length > 0 ? [`${drift.config.length} config entries gone`] : []),
    ...(drift.shared.length > 0 ? [`${drift.shared.length} shared skill files gone`] : []),
    ...root.problems,
  ];
  return words.length === 0 ? <State ok={true} text="no drift" /> : <State ok={null} text={words.join("; ")} />;
}
