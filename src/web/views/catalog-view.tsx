import type { ModelSearch } from "../../app/mcp-server/catalog-search.js";
import type { CatalogQuery } from "../sources.js";
import { State } from "./layout.js";

const number = (value: number | undefined | null) => (value === undefined || value === null ? "—" : value >= 1_000_000 ? `${Number((value / 1_000_000).toFixed(1))}M` : value >= 1000 ? `${Math.round(value / 1000)}K` : String(value));

/** The search form: the results below are replaced as you type (htmx), and the same URL works without script. */
export function CatalogForm(props: { query: CatalogQuery }) {
  return (
    <form id="catalog-form" class="search" method="get" action="/catalog" hx-get="/catalog/results" hx-target="#catalog-results" hx-swap="outerHTML" hx-trigger="input changed delay:250ms from:input, change from:input, submit" role="search">
      <label for="catalog-q">Search models</label>
      <input id="catalog-q" type="search" name="q" value={props.query.query ?? ""} placeholder="provider, model or name" autocomplete="off" />
      <label for="catalog-provider">Provider</label>
      <input id="catalog-provider" type="text" name="provider" value={props.query.provider ?? ""} autocomplete="off" />
      <label class="check">
        <input type="checkbox" name="available" value="1" checked={props.query.availableOnly === true} /> available only
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

/**
 * `#catalog-version`: pushed when the catalog changed (a refreshed list, a key stored): the page
 * then asks for its results again with the search it shows (bosun-live.js triggers `bosun:changed`
 * on an element it replaced that has `data-reload`).
 */
export function CatalogVersion(props: { version: string }) {
  return <span id="catalog-version" hidden data-version={props.version} data-reload="" hx-get="/catalog/results" hx-include="#catalog-form" hx-target="#catalog-results" hx-swap="outerHTML" hx-trigger="bosun:changed"></span>;
}

/** `#catalog-results`: the models found, with limits, prices, and whether (and why) each can be used. */
export function CatalogResults(props: { search: ModelSearch & { source: string } }) {
  const { search } = props;
  return (
    <section id="catalog-results" aria-labelledby="catalog-heading">
      <h2 id="catalog-heading">
        {search.matched} model{search.matched === 1 ? "" : "s"}
        {search.query ? ` matching "${search.query}"` : ""}
        {search.truncated ? `, the first ${search.models.length} shown` : ""}
      </h2>
      <p class="source">Catalog: {search.source}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Context</th>
            <th scope="col">Output</th>
            <th scope="col">Price per 1M (in / out)</th>
            <th scope="col">Available</th>
          </tr>
        </thead>
        <tbody>
          {search.models.map((model) => (
            <tr>
              <th scope="row">
                <code>
                  {model.provider}/{model.id}
                </code>{" "}
                {model.name}
              </th>
              <td>{number(model.contextLimit)}</td>
              <td>{number(model.outputLimit)}</td>
              <td>{model.cost.input === null && model.cost.output === null ? "—" : `$${model.cost.input ?? "—"} / $${model.cost.output ?? "—"}`}</td>
              <td>
                <State ok={model.available} text={model.why} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
