import type { DesiredInputs, DesiredInstall } from "../plan/desired.js";
import type { InstallFs } from "../apply/install-fs.js";
import type { DigestCache } from "../lock/digest-cache.js";
import type { LoadCache } from "./load-cache.js";
import type { LoadedPack, LoadPackOptions } from "./load-pack.js";
import { unchangedPaths } from "../plan/settled.js";

/**
 * A path changed this shortly before it was looked at may change again with the same stat key
 * (file times move in clock ticks, or whole seconds): such a pack is loaded again, as the digest
 * cache does not keep such a file's hash.
 */
const SETTLE_MS = 2_000;

/**
 * What the runs of one command share. `bosun install` plans a preview (to check and show it), then
 * loads and plans again under the lock before it writes. The second load is the first one's pack
 * when every path that load looked at still has the stat key it had before it was read (the proof
 * a settled reinstall trusts) and none had changed just before; then each runtime's desired state
 * of it is the one already built (it is made from the pack and values only). One digest cache and
 * one load cache serve both (what the preview hashed or parsed is not done again, and the run saves
 * it). Any change in the pack, or other load options, loads it again.
 */
export class PackReuse {
  private last: { dir: string; options: string; pack: LoadedPack; settled: boolean } | undefined;
  private shared: { digests: DigestCache; loads: LoadCache } | undefined;
  /** Desired states built from the last pack, by their other inputs. */
  private readonly desires = new Map<string, DesiredInstall>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The pack in `dir`, loaded by `load` unless the last one loaded here is unchanged. */
  pack(dir: string, options: LoadPackOptions, fs: InstallFs, load: () => LoadedPack): LoadedPack {
    const key = JSON.stringify(options);
    const last = this.last;
    if (last?.settled && last.dir === dir && last.options === key && unchangedPaths(fs, last.pack.watch, last.pack.dir)) return last.pack;
    const started = this.now();
    const pack = load();
    this.last = { dir, options: key, pack, settled: pack.watch.every(([, statKey]) => statKey === null || changedAt(statKey) < started - SETTLE_MS) };
    this.desires.clear();
    return pack;
  }

  /** A runtime's desired state of the last pack: built again only from another pack or other inputs. */
  desired(inputs: DesiredInputs, build: (inputs: DesiredInputs) => DesiredInstall): DesiredInstall {
    if (inputs.pack !== this.last?.pack) return build(inputs);
    const key = JSON.stringify({ ...inputs, pack: null, runtime: inputs.runtime.id, skipSkills: [...(inputs.skipSkills ?? [])] });
    let desired = this.desires.get(key);
    if (!desired) this.desires.set(key, (desired = build(inputs)));
    return desired;
  }

  /** The command's digest and load caches, opened once (saved only by a run that writes). */
  caches(open: () => { digests: DigestCache; loads: LoadCache }): { digests: DigestCache; loads: LoadCache } {
    return (this.shared ??= open());
  }
}

/** The later of the change and modification times in an installed stat key (`size:ctime:mtime:inode`). */
function changedAt(statKey: string): number {
  const [, ctime, mtime] = statKey.split(":");
  return Math.max(Number(ctime), Number(mtime));
}
