import type { InstallFs } from "./install-fs.js";
import type { DigestCache } from "./lock/digest-cache.js";
import type { LoadedPack, LoadPackOptions } from "./pack/load-pack.js";
import { unchangedPaths } from "./settled.js";

/**
 * What the runs of one command share. `bosun install` plans a preview (to check and show it), then
 * loads and plans again under the lock before it writes: the second load is the first one's pack
 * when every path that load looked at still has the stat key it had before it was read (the
 * proof a settled reinstall trusts), and one digest cache serves both digests (a file hashed for
 * the preview is not read again for the run; the cache keys each hash by the file's stat). Any
 * change in the pack, or other load options, loads it again.
 */
export class PackReuse {
  private last: { dir: string; options: string; pack: LoadedPack } | undefined;
  private digests: DigestCache | undefined;

  /** The pack in `dir`, loaded by `load` unless the last one loaded here is unchanged. */
  pack(dir: string, options: LoadPackOptions, fs: InstallFs, load: () => LoadedPack): LoadedPack {
    const key = JSON.stringify(options);
    const last = this.last;
    if (last && last.dir === dir && last.options === key && unchangedPaths(fs, last.pack.watch, last.pack.dir)) return last.pack;
    const pack = load();
    this.last = { dir, options: key, pack };
    return pack;
  }

  /** The command's digest cache, opened once (saved only by a run that writes). */
  digestCache(open: () => DigestCache): DigestCache {
    return (this.digests ??= open());
  }
}
