import type { ModelListState, PolicyAnswer } from "../sources.js";

function ago(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

/** `#catalog-status`: where the model list comes from and how old it is, and Refresh (live: an hourly refresh shows here too). */
export function CatalogStatus(props: { list: ModelListState; refreshing: boolean; last: { status: string; error?: string } | null }) {
  const { list } = props;
  const from = list.source === "embedded" ? "bosun's built-in list" : `models.dev's list, ${list.ageMs === null ? "just downloaded" : `downloaded ${ago(list.ageMs)}`} (${list.cache})`;
  return (
    <section id="catalog-status" class="catalog-status" aria-label="The model list" aria-live="polite">
      <p>
        {list.providers} providers, {list.models} models: {from}.{" "}
        {list.downloadsOff ? (
          "Downloads are turned off (BOSUN_DISABLE_MODELS_FETCH)."
        ) : props.refreshing ? (
          <span>Downloading {list.url}…</span>
        ) : (
          <button type="button" hx-post="/catalog/refresh" hx-target="#catalog-status" hx-swap="outerHTML">
            Refresh the list
          </button>
        )}
      </p>
      {props.last && !props.refreshing ? (
        <p class={props.last.status === "failed" ? "state no" : "state ok"}>
          {props.last.status === "fetched" ? "Downloaded: search again to see the new list." : props.last.status === "fresh" ? "The list is up to date." : props.last.error ?? props.last.status}
        </p>
      ) : null}
    </section>
  );
}

/** The policy check: which statement decides whether a provider or a model may be used. */
export function PolicyForm() {
  return (
    <form class="policy" hx-get="/catalog/policy" hx-target="#policy-result" hx-swap="outerHTML" aria-labelledby="policy-heading">
      <h2 id="policy-heading">Policy check</h2>
      <label for="policy-action">Action</label>
      <select id="policy-action" name="action">
        <option value="model.use">model.use</option>
        <option value="provider.use">provider.use</option>
      </select>
      <label for="policy-resource">Resource</label>
      <input id="policy-resource" type="text" name="resource" placeholder="openai/gpt-5 or openai" autocomplete="off" />
      <button type="submit">Check</button>
    </form>
  );
}

/** `#policy-result`: the decision and the statement (file, index) that made it. */
export function PolicyResult(props: { answer: PolicyAnswer | null }) {
  const { answer } = props;
  if (!answer) return <section id="policy-result" aria-live="polite"></section>;
  return (
    <section id="policy-result" aria-live="polite">
      <p>
        <span class={`state ${answer.effect === "allow" ? "ok" : "no"}`}>
          <span aria-hidden="true">{answer.effect === "allow" ? "✓ " : "✗ "}</span>
          {answer.effect}
        </span>{" "}
        <code>
          {answer.action} {answer.resource}
        </code>
        {answer.statement ? (
          <>
            : decided by <code>{`${answer.statement.effect} ${answer.statement.action} ${answer.statement.resource}`}</code>
            {answer.statement.file ? (
              <>
                {" "}
                in <code>{`${answer.statement.file} policy[${answer.statement.index}]`}</code> ({answer.statement.scope})
              </>
            ) : null}
          </>
        ) : (
          `: no statement matches (${answer.statements} in force), so the default applies`
        )}
      </p>
    </section>
  );
}
