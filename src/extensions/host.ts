import { describeError } from "../kernel/errors.js";
import { discoverExtensionFiles, type ExtensionFile } from "./discover.js";
import { ExtensionError } from "./extension-error.js";
import { importExtensionModule, loadExtension, type LoadedExtension, type ModuleImporter } from "./load.js";
import type { PointArgs } from "./points.js";
import type { ExtensionRoot } from "./roots.js";

/**
 * Finds, loads and calls the extensions at named points. Calls are sequential, in file-name
 * order; an extension that throws stops the call and is reported with its file name (at an
 * observer point, `notify` reports it and goes on). Loading is asynchronous (ES modules), so a
 * sync point's extensions are loaded with `preload` first. The arguments of each point are typed
 * by the one map in points.ts.
 */
export class ExtensionHost {
  private readonly discovered = new Map<string, ExtensionFile[]>();
  private readonly loaded = new Map<string, LoadedExtension[]>();
  private readonly loadedFiles = new Map<string, Promise<LoadedExtension>>();

  constructor(
    private rootList: ExtensionRoot[],
    private readonly importModule: ModuleImporter = importExtensionModule,
  ) {}

  get roots(): readonly ExtensionRoot[] {
    return this.rootList;
  }

  /** Switches to new roots (e.g. after plugins were moved into place); forgets what was found. */
  setRoots(roots: ExtensionRoot[]): void {
    this.rootList = roots;
    this.discovered.clear();
    this.loaded.clear();
    this.loadedFiles.clear();
  }

  /** The files that run at `point`, in order (discovered once per host). */
  files(point: string): ExtensionFile[] {
    let files = this.discovered.get(point);
    if (!files) {
      files = discoverExtensionFiles(point, this.rootList);
      this.discovered.set(point, files);
    }
    return files;
  }

  /** Loads the extensions of each point so they can be called synchronously. */
  async preload(points: string[]): Promise<void> {
    for (const point of points) await this.load(point);
  }

  async load(point: string): Promise<LoadedExtension[]> {
    let extensions = this.loaded.get(point);
    if (!extensions) {
      extensions = [];
      for (const file of this.files(point)) extensions.push(await loadExtension(file, this.importModule));
      this.loaded.set(point, extensions);
    }
    return extensions;
  }

  /** The loaded extensions of a sync point; throws if the point has files that were not preloaded. */
  loadedSync(point: string): LoadedExtension[] {
    const extensions = this.loaded.get(point);
    if (extensions) return extensions;
    if (this.files(point).length === 0) return [];
    throw new Error(`extension point ${point} was called before it was preloaded`);
  }

  /** Runs one extension at a sync point: a returned promise is an error naming the file. */
  runSync<P extends string>(extension: LoadedExtension, args: PointArgs<P>): unknown {
    const value = invoke(extension, args);
    if (isPromiseLike(value)) {
      // Never awaited: keep its eventual rejection from crashing the process as unhandled.
      Promise.resolve(value).catch(() => {});
      throw new ExtensionError(
        extension.file,
        extension.point,
        "returned a promise at a synchronous point; make its function synchronous",
      );
    }
    return value;
  }

  /** Calls every extension at a sync point in order; returns their results. */
  callSync<P extends string>(point: P, args: PointArgs<P>): unknown[] {
    return this.loadedSync(point).map((extension) => this.runSync<P>(extension, args));
  }

  /** Calls every extension at a point in order, awaiting each before the next. */
  async callAsync<P extends string>(point: P, args: PointArgs<P>): Promise<unknown[]> {
    const results: unknown[] = [];
    for (const extension of await this.load(point)) {
      try {
        results.push(await invoke(extension, args));
      } catch (error) {
        throw asExtensionError(extension, error);
      }
    }
    return results;
  }

  /**
   * Calls every extension at an observer point in order, awaiting each; one that throws (or does
   * not load) does not stop the others. Returns what went wrong, each naming its file.
   */
  async notify<P extends string>(point: P, args: PointArgs<P>): Promise<ExtensionError[]> {
    const problems: ExtensionError[] = [];
    for (const file of this.files(point)) {
      let extension: LoadedExtension;
      try {
        extension = await this.loadFile(file);
      } catch (error) {
        problems.push(error as ExtensionError);
        continue;
      }
      try {
        await invoke(extension, args);
      } catch (error) {
        problems.push(asExtensionError(extension, error));
      }
    }
    return problems;
  }

  /** One file's extension, loaded once per host (an observer point loads its files one by one). */
  private loadFile(file: ExtensionFile): Promise<LoadedExtension> {
    let loading = this.loadedFiles.get(file.file);
    if (!loading) {
      loading = loadExtension(file, this.importModule);
      this.loadedFiles.set(file.file, loading);
    }
    return loading;
  }
}

function invoke(extension: LoadedExtension, args: object): unknown {
  try {
    return extension.run(args);
  } catch (error) {
    throw asExtensionError(extension, error);
  }
}

function asExtensionError(extension: LoadedExtension, error: unknown): ExtensionError {
  if (error instanceof ExtensionError) return error;
  return new ExtensionError(extension.file, extension.point, `threw: ${describeError(error)}`, { cause: error });
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
