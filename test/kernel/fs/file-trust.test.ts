import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isPrivateGroup, untrustedBecause, type FileUser } from "../../../src/kernel/fs/file-trust.js";

const PASSWD = ["root:x:0:0:root:/root:/bin/bash", "ann:x:1000:1000::/home/ann:/bin/sh", "bob:x:1001:100::/home/bob:/bin/sh", "cy:x:1002:100::/home/cy:/bin/sh", "+::::::"].join("\n");
const GROUP = ["root:x:0:", "users:x:100:", "ann:x:1000:ann", "dev:x:1003:ann,bob", "+:::"].join("\n");

describe("a user's private group", () => {
  it("is named as the user, has no other member and is no other user's primary group", () => {
    expect(isPrivateGroup(1000, 1000, PASSWD, GROUP)).toBe(true);
    expect(isPrivateGroup(0, 0, PASSWD, GROUP)).toBe(true);
    // users (100): the primary group of bob and cy; dev: has members; 1004: not listed.
    expect(isPrivateGroup(1001, 100, PASSWD, GROUP)).toBe(false);
    expect(isPrivateGroup(1000, 1003, PASSWD, GROUP)).toBe(false);
    expect(isPrivateGroup(1000, 1004, PASSWD, GROUP)).toBe(false);
    expect(isPrivateGroup(1000, 1000, PASSWD, GROUP.replace("ann:x:1000:ann", "ann:x:1000:ann,bob"))).toBe(false);
    // A user not in /etc/passwd (a directory service's), and a NIS `+` line, whose empty ids are not 0.
    expect(isPrivateGroup(2000, 0, PASSWD, GROUP)).toBe(false);
    expect(isPrivateGroup(0, 0, PASSWD, GROUP + "\n+wheel:x::")).toBe(true);
  });

  it("root's group 0 on this system is root's own", () => {
    expect(isPrivateGroup(0, 0, readFileSync("/etc/passwd", "utf8"), readFileSync("/etc/group", "utf8"))).toBe(true);
  });
});

describe("who could have written a file", () => {
  const ann = (privateGroup: boolean): FileUser => ({ uid: 1000, gid: 1000, groupIsPrivate: () => privateGroup });
  it("only the user: their file, writable by their private group at most", () => {
    expect(untrustedBecause({ uid: 1000, gid: 1000, mode: 0o100664 }, ann(true))).toBeNull();
    expect(untrustedBecause({ uid: 1000, gid: 1000, mode: 0o100664 }, ann(false))).toBe("is writable by your group 1000, which is not yours alone (mode 0664); chmod go-w it if you trust it");
    expect(untrustedBecause({ uid: 1000, gid: 100, mode: 0o100666 }, ann(true))).toBe("is writable by group 100 and others (mode 0666); chmod go-w it if you trust it");
    expect(untrustedBecause({ uid: 0, gid: 0, mode: 0o100644 }, ann(true))).toBe("belongs to user 0, not to you (user 1000); chown it to yourself if you trust it");
    // Without uids (Windows): the mode still counts.
    expect(untrustedBecause({ uid: 0, gid: 0, mode: 0o100620 }, null)).toBe("is writable by group 0 (mode 0620); chmod go-w it if you trust it");
  });
});
