import type { Child } from "hono/jsx";

/** The dashboard's views, in the order of the navigation. */
export const VIEWS = [
  { path: "/", id: "agents", title: "Agents" },
  { path: "/installs", id: "installs", title: "Installs" },
  { path: "/catalog", id: "catalog", title: "Catalog" },
  { path: "/sessions", id: "sessions", title: "Sessions" },
  { path: "/status", id: "status", title: "Status" },
] as const;

export type ViewId = (typeof VIEWS)[number]["id"];

/**
 * Every page: the CSRF token for htmx (`meta`), htmx hardened (no eval, no script tags in swaps,
 * no history cache: transcripts never go to localStorage), the navigation, a message area for one
 * line errors, the questions runs wait on (`banner`, kept live), and the view. Scripts and styles only from the dashboard itself (the CSP).
 */
export function Layout(props: { view: ViewId; title: string; csrf: string; banner?: Child; assets: { url(name: string): string }; children: Child }) {
  const htmxConfig = JSON.stringify({ allowEval: false, allowScriptTags: false, historyCacheSize: 0, historyEnabled: false, selfRequestsOnly: true, includeIndicatorStyles: false, refreshOnHistoryMiss: true });
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content={htmxConfig} />
        <meta name="bosun-csrf" content={props.csrf} />
        <title>{`${props.title} · bosun`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={props.assets.url("bosun.css")} />
        <script src={props.assets.url("htmx.min.js")} defer></script>
        <script src={props.assets.url("bosun-live.js")} defer></script>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to the content
        </a>
        <header>
          <p class="brand">bosun</p>
          <nav aria-label="Views">
            <ul>
              {VIEWS.map((view) => (
                <li>
                  <a href={view.path} aria-current={view.id === props.view ? "page" : undefined}>
                    {view.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <p id="live-state" class="live-state" role="status" aria-live="polite">
            connecting…
          </p>
        </header>
        <main id="main" tabindex={-1}>
          <h1>{props.title}</h1>
          <p id="message" class="message" role="alert"></p>
          {props.banner ?? null}
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A state word with a mark that is not only a colour (✓ yes, ✗ no, ! a problem). */
export function State(props: { ok: boolean | null; text: string }) {
  const mark = props.ok === null ? "!" : props.ok ? "✓" : "✗";
  return (
    <span class={`state ${props.ok === null ? "warn" : props.ok ? "ok" : "no"}`}>
      <span aria-hidden="true">{mark} </span>
      {props.text}
    </span>
  );
}
