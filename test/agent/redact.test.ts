import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, redactSecrets } from "../../src/agent/redact.js";
import { relayAgentMessage } from "../../src/runtimes/agent-message.js";
import { knownSecrets } from "../../src/runtimes/known-secrets.js";
import { makeDetection } from "../fixtures/detection.js";

describe("redactSecrets", () => {
  it("replaces every occurrence of each value with its name", () => {
    expect(redactSecrets("key=sk-123456 again sk-123456", [{ name: "OPENAI_API_KEY", value: "sk-123456" }])).toBe("key=[redacted:OPENAI_API_KEY] again [redacted:OPENAI_API_KEY]");
  });

  it("replaces the longest value first, so a secret containing another is replaced whole", () => {
    const secrets = [
      { name: "SHORT", value: "abcdef" },
      { name: "LONG", value: "abcdef-ghijkl" },
    ];
    expect(redactSecrets("abcdef-ghijkl and abcdef", secrets)).toBe("[redacted:LONG] and [redacted:SHORT]");
  });

  it("never searches its own replacements again", () => {
    expect(redactSecrets("token redacted", [{ name: "A", value: "redacted" }, { name: "B", value: "token redacted" }])).toBe("[redacted:B]");
    expect(redactSecrets("x secret1 y", [{ name: "redacted", value: "secret1" }, { name: "Q", value: "redacted" }])).toBe("x [redacted:redacted] y");
  });

  it("ignores values shorter than a few characters and treats values literally", () => {
    expect(MIN_SECRET_LENGTH).toBe(4);
    expect(redactSecrets("yes 123 ok", [{ name: "A", value: "yes" }, { name: "B", value: "123" }])).toBe("yes 123 ok");
    expect(redactSecrets("a.*b+c?(d) a-b-c-d", [{ name: "RE", value: "a.*b+c?(d)" }])).toBe("[redacted:RE] a-b-c-d");
    expect(redactSecrets("", [{ name: "A", value: "abcdefgh" }])).toBe("");
    expect(redactSecrets("text", [])).toBe("text");
  });
});

describe("relaying an agent CLI's complaint", () => {
  it("redacts known values, masked fragments and long opaque runs, in one short line", () => {
    const text = "Error: API key configured - sk-fake-***lmnop\nwith token abcdefghij0123456789abcdefghij0123\nsecret hunter22 here\nfourth line\n";
    expect(relayAgentMessage(text, [{ name: "PASSWORD", value: "hunter22" }])).toBe("Error: API key configured - [redacted] / with token [redacted] / secret [redacted:PASSWORD] here");
    expect(relayAgentMessage("word ".repeat(100), [], 50)).toHaveLength(50);
    expect(relayAgentMessage("bell\u0007 and \u001b[31mred\u001b[0m\ttext", [])).toBe("bell and red text");
  });
});

describe("known secrets for redaction", () => {
  it("takes credential-like variables and every string of the named JSON files", () => {
    const t = makeDetection({ env: { MY_API_KEY: "k1-value", GH_TOKEN: "t1-value", EDITOR: "vim", CUSTOM: "c1-value" } });
    const file = t.put("auth.json", JSON.stringify({ tokens: { access_token: "a1-value", nested: ["n1-value"] } }));
    const secrets = knownSecrets(t.ctx.env, ["CUSTOM"], t.ctx.files, [file, t.put("not-json", "x"), "/nowhere.json"]);
    expect(secrets.map((s) => s.value).sort()).toEqual(["a1-value", "c1-value", "k1-value", "n1-value", "t1-value"]);
    expect(secrets.find((s) => s.value === "a1-value")!.name).toBe("access_token");
  });
});
