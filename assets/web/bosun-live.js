// bosun serve's page script: the CSRF header on every htmx request, one-line errors in the page's
// message area, and the live stream. One stream per browser, not per tab (a browser opens at most 6
// connections to a host): the tab holding the "bosun-live" lock reads /live and passes each
// fragment to the other tabs over a BroadcastChannel; when it closes, another tab takes the lock.
// A watchdog reopens the stream when nothing (not even the server's 10 s ping) came for 25 s; a
// stream that opens again starts with every element's current state.
(() => {
  "use strict";
  const csrf = document.querySelector('meta[name="bosun-csrf"]')?.getAttribute("content") ?? "";
  const state = () => document.getElementById("live-state");
  const say = (text) => {
    const element = state();
    if (element) element.textContent = text;
  };
  const message = (text) => {
    const element = document.getElementById("message");
    if (element) element.textContent = text;
  };

  document.addEventListener("htmx:configRequest", (event) => {
    event.detail.headers["x-bosun-csrf"] = csrf;
  });
  document.addEventListener("htmx:beforeRequest", () => message(""));
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    let text = `the request failed (${xhr.status})`;
    try {
      text = JSON.parse(xhr.responseText).error ?? text;
    } catch {
      // not JSON: the status says it
    }
    message(text);
  });
  // A job's element (data-seq) never goes back to an older state: an answer that arrives after a
  // newer live update of the same element is not swapped in.
  const older = (seq, element) => seq !== null && element?.hasAttribute("data-seq") && Number(seq) < Number(element.getAttribute("data-seq"));
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    const seq = /^\s*<[^>]*\sdata-seq="(\d+)"/.exec(event.detail.serverResponse ?? "")?.[1] ?? null;
    if (target && target.id && older(seq, target)) event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:sendError", () => message("the dashboard cannot be reached: is bosun serve still running?"));

  /** Replaces the element the fragment is for, if this page has it (htmx then sees its attributes). */
  const apply = (fragment) => {
    const element = document.getElementById(fragment.target);
    if (!element) return;
    const holder = document.createElement("template");
    holder.innerHTML = fragment.html;
    const next = holder.content.firstElementChild;
    if (!next || next.id !== fragment.target) return;
    // What the page shows already (a stream that reconnects sends every element again): left alone.
    if (element.outerHTML === next.outerHTML) return;
    if (older(next.getAttribute("data-seq"), element)) return;
    element.replaceWith(next);
    if (window.htmx) {
      window.htmx.process(next);
      // An element that stands for a change elsewhere (the catalog's version): the page loads what it shows again.
      if (next.hasAttribute("data-reload")) window.htmx.trigger(next, "bosun:changed");
    }
  };

  const channel = "BroadcastChannel" in window ? new BroadcastChannel("bosun-live") : null;
  if (channel) {
    channel.onmessage = (event) => {
      if (event.data?.kind === "fragment") apply(event.data.fragment);
      if (event.data?.kind === "state") say(event.data.text);
    };
  }
  const share = (data) => channel?.postMessage(data);

  const WATCHDOG_MS = Number(document.querySelector('meta[name="bosun-watchdog"]')?.getAttribute("content") ?? 25000);

  /** Reads the stream until the page goes away (never resolves: the lock is held while it lives). */
  const lead = () =>
    new Promise(() => {
      let source = null;
      let last = Date.now();
      const announce = (text) => {
        say(text);
        share({ kind: "state", text });
      };
      const open = () => {
        source?.close();
        last = Date.now();
        source = new EventSource("/live");
        source.addEventListener("ping", () => {
          last = Date.now();
          announce("live");
        });
        source.addEventListener("fragment", (event) => {
          last = Date.now();
          const fragment = JSON.parse(event.data);
          apply(fragment);
          share({ kind: "fragment", fragment });
        });
        source.onerror = () => announce("reconnecting…");
      };
      open();
      setInterval(() => {
        if (Date.now() - last > WATCHDOG_MS) {
          announce("reconnecting…");
          open();
        }
      }, 1000);
    });

  if (navigator.locks?.request) {
    say("live (shared)");
    void navigator.locks.request("bosun-live", lead);
  } else {
    void lead();
  }
})();
