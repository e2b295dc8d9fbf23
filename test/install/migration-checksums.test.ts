// Shipped migration records never change (fix forward with a new id): their checksums, over
// their declared data, are pinned here. A changed, missing or new record fails this test.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bundledPackDir } from "../../src/install/install-pack.js";
import { migrationChecksum } from "../../src/install/records/migration-record.js";
import { ENGINE_MIGRATIONS } from "../../src/install/migrations/index.js";
import { packMigrationRecords } from "../../src/install/migrations/pack-records.js";
import { loadPack } from "../../src/install/pack/load-pack.js";
import { PACKAGE_ROOT } from "../fixtures/install.js";

const BASELINE: Record<string, string> = JSON.parse(readFileSync(new URL("./migration-checksums.json", import.meta.url), "utf8"));

describe("shipped migration checksums", () => {
  it("match the committed baseline: no stale ids, no missing ids, no changed record", () => {
    const pack = loadPack(bundledPackDir(PACKAGE_ROOT));
    const shipped = [...ENGINE_MIGRATIONS, ...packMigrationRecords(pack.name, pack.migrations)];
    const current = Object.fromEntries(shipped.map((record) => [`${record.source} ${record.id}`, migrationChecksum(record)]));
    expect(Object.keys(current).sort(), "stale or missing ids in migration-checksums.json").toEqual(Object.keys(BASELINE).sort());
    for (const [key, checksum] of Object.entries(current)) expect(checksum, `${key} changed: shipped records are immutable; add a fix-forward migration instead`).toBe(BASELINE[key]);
  });
});
