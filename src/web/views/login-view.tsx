import type { LoginState } from "../login-job.js";

const clock = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(11, 16);

/** `#codex-login`: Codex's device login from the page: the button, the code to enter and where, how it ended. */
export function CodexLogin(props: { login: LoginState }) {
  const { login } = props;
  const startButton = (label: string) => (
    <button type="button" hx-post="/agents/codex/login" hx-target="#codex-login" hx-swap="outerHTML">
      {label}
    </button>
  );
  return (
    <section id="codex-login" aria-labelledby="codex-login-heading" aria-live="polite">
      <h2 id="codex-login-heading">Sign Codex in</h2>
      {login.state === "idle" ? (
        <p>Codex can be signed in with a device code: bosun shows the code, you enter it on OpenAI's page, and the login is stored in bosun's data folder. {startButton("Start the device login")}</p>
      ) : login.state === "starting" ? (
        <p>Asking the login server for a code…</p>
      ) : login.state === "waiting" ? (
        <div class="device-code">
          <p>
            Open{" "}
            <a href={login.verificationUrl} target="_blank" rel="noopener noreferrer">
              {login.verificationUrl}
            </a>{" "}
            and enter this code:
          </p>
          <p class="code">
            <output>{login.userCode}</output>
          </p>
          <p>
            bosun checks every few seconds; the code expires at <time datetime={new Date(login.expiresAt * 1000).toISOString()}>{clock(login.expiresAt)} UTC</time>. Closing this page does not stop the login.{" "}
            <button type="button" hx-delete="/agents/codex/login" hx-target="#codex-login" hx-swap="outerHTML">
              Cancel
            </button>
          </p>
        </div>
      ) : login.state === "signed-in" ? (
        <p>
          <span class="state ok">
            <span aria-hidden="true">✓ </span>Codex is signed in
          </span>
          {login.accountId ? ` (account ${login.accountId})` : ""}; the login is in <code>{login.authPath}</code>.
        </p>
      ) : login.state === "failed" ? (
        <p>
          <span class="state no">
            <span aria-hidden="true">✗ </span>
            {login.message}
          </span>{" "}
          {startButton("Try again")}
        </p>
      ) : (
        <p>The login was cancelled; nothing was stored. {startButton("Start again")}</p>
      )}
    </section>
  );
}
