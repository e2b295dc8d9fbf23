import { GROUP_LABELS, type InstallReport, type ReportGroup } from "../../install/report.js";
import { displayPath } from "../../kernel/paths.js";
import { choiceKey, type InstallRequest } from "../sources.js";
import type { InstallState } from "../install-job.js";

/** The groups shown, least to most risky, and which need an explicit look (open by default). */
const SHOWN: ReportGroup[] = ["added", "replaced", "moved", "config", "removed", "backed-up", "needs-choice", "blocked"];
const OPEN: ReadonlySet<ReportGroup> = new Set(["backed-up", "needs-choice", "blocked"]);

/** The form that asks for a plan: which runtimes, which scope, which pack (bosun's own by default). */
export function InstallForm(props: { runtimes: { id: string; title: string; detected: boolean }[]; scope: "global" | "local" }) {
  return (
    <form id="install-form" class="install-form" hx-post="/installs/plan" hx-target="#install-plan" hx-swap="outerHTML" aria-labelledby="install-form-heading">
      <h2 id="install-form-heading">Install a pack</h2>
      <fieldset>
        <legend>Into</legend>
        {props.runtimes.map((runtime) => (
          <label class="check">
            <input type="checkbox" name="runtimes" value={runtime.id} checked={runtime.detected} /> {runtime.title}
            {runtime.detected ? "" : " (no folder yet)"}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Scope</legend>
        <label class="check">
          <input type="radio" name="scope" value="global" checked={props.scope === "global"} /> global (your user folders)
        </label>
        <label class="check">
          <input type="radio" name="scope" value="local" checked={props.scope === "local"} /> this project (where bosun serve runs)
        </label>
      </fieldset>
      <label for="install-pack">Pack folder (empty: bosun's own pack)</label>
      <input id="install-pack" type="text" name="pack" autocomplete="off" />
      <button type="submit">Plan</button>
    </form>
  );
}

/** `#install-plan`: the dry run, grouped by risk, with what the pack will run and a choice for each file of yours; Apply sends the plan's id. */
export function InstallPlan(props: { request: InstallRequest | null; planId: string | null; report: InstallReport | null; home: string }) {
  const { report, request, planId } = props;
  if (!report || !request || !planId) return <section id="install-plan" aria-label="Plan"></section>;
  const shown = (path: string) => displayPath(path, props.home);
  const roots = report.targets.flatMap((target) => target.roots.map((root) => ({ target, root })));
  const changing = roots.filter(({ root }) => root.status !== "unchanged");
  const blocked = roots.some(({ root }) => root.counts.blocked > 0);
  const audit = report.audit;
  let question = 0;
  return (
    <section id="install-plan" aria-labelledby="install-plan-heading">
      <h2 id="install-plan-heading">
        Plan: {report.pack.name} {report.pack.version ?? ""} — {changing.length === 0 ? "nothing to change" : `${changing.length} folder${changing.length === 1 ? "" : "s"} change`}
      </h2>
      <form hx-post="/installs/apply" hx-target="#install-progress" hx-swap="outerHTML">
        <input type="hidden" name="planId" value={planId} />
        <input type="hidden" name="scope" value={request.scope} />
        <input type="hidden" name="pack" value={request.pack ?? ""} />
        {request.runtimes.map((id) => (
          <input type="hidden" name="runtimes" value={id} />
        ))}
        {audit && audit.hooks.length > 0 ? (
          <details open={!audit.unchanged}>
            <summary>
              Hooks the pack will run: {audit.hooks.length}
              {audit.unchanged ? " (as installed)" : ""}
            </summary>
            <ul>
              {audit.hooks.map((hook) => (
                <li>
                  <code>{hook.hook}</code> on {hook.event} in {hook.runtime} ({hook.scope}, {hook.file}): <code>{hook.command}</code>{hook.change === "unchanged" ? "" : ` (${hook.change})`}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {roots.map(({ target, root }) => (
          <section class="plan-root" aria-label={`${target.title} ${shown(root.dir)}`}>
            <h3>
              {target.title} ({target.scope}) <code>{shown(root.dir)}</code>: {root.status === "unchanged" ? "nothing to change" : "changes"}
            </h3>
            {SHOWN.filter((group) => root.counts[group] > 0).map((group) => (
              <details open={OPEN.has(group)}>
                <summary>
                  {GROUP_LABELS[group]}: {root.counts[group]}
                </summary>
                <ul>
                  {root.actions
                    .filter((action) => action.group === group)
                    .map((action) => {
                      if (group !== "needs-choice") return (
                        <li>
                          <code>{action.path}</code> {action.reason}
                          {action.blocked ? `: ${action.blocked}` : ""}
                        </li>
                      );
                      const n = question++;
                      return (
                        <li>
                          <code>{action.path}</code> {action.reason}{" "}
                          <input type="hidden" name={`question-${n}`} value={choiceKey(root.dir, action.path)} />
                          <label for={`choice-${n}`}>Your file:</label>
                          <select id={`choice-${n}`} name={`choice-${n}`}>
                            <option value="keep">keep yours</option>
                            <option value="remove">back it up and take the pack's</option>
                          </select>
                        </li>
                      );
                    })}
                </ul>
              </details>
            ))}
            {root.notes.map((note) => (
              <p class="note">{note}</p>
            ))}
          </section>
        ))}
        {blocked ? <p class="state warn">Something blocks this install (above): fix it, then plan again.</p> : changing.length > 0 ? <button type="submit">Apply</button> : null}
      </form>
    </section>
  );
}

/** `#install-progress`: the install from the page: its progress while it runs (live), and how it ended. */
export function InstallProgress(props: { state: InstallState; seq: number }) {
  const { state } = props;
  return (
    <section id="install-progress" aria-label="Install progress" aria-live="polite" data-seq={props.seq}>
      {state.state === "idle" ? null : state.state === "applying" ? (
        <p>
          Installing into {state.request.runtimes.join(", ")} ({state.request.scope}):{" "}
          <progress max={state.total || 1} value={state.done}>
            {state.done} of {state.total}
          </progress>{" "}
          {state.done} of {state.total || "?"} changes
        </p>
      ) : state.state === "done" ? (
        <p>
          <span class="state ok">
            <span aria-hidden="true">✓ </span>Installed
          </span>{" "}
          {state.report.pack.name} {state.report.pack.version ?? ""} into {state.request.runtimes.join(", ")} ({state.request.scope}):{" "}
          {state.report.targets.flatMap((target) => target.roots).filter((root) => root.status !== "unchanged").length} folder(s) changed
          {state.report.targets.flatMap((target) => target.roots).some((root) => root.backups.length > 0) ? "; your edited files were backed up first" : ""}.
        </p>
      ) : (
        <p>
          <span class="state no">
            <span aria-hidden="true">✗ </span>
            {state.message}
          </span>
          {state.stale ? " Nothing was written." : ""}
        </p>
      )}
    </section>
  );
}
