/** One change for the open pages: the new HTML of one element (by its id), numbered in order. */
export interface LiveFragment {
  id: number;
  /** The id of the element it replaces. */
  target: string;
  html: string;
  /** The SSE data line (`{target, html}` as JSON). */
  data: string;
  /** The whole SSE event (`event: fragment`, its id, the data), encoded once for every stream: a hundred streams share these bytes. */
  frame: Uint8Array;
}

const encoder = new TextEncoder();

/**
 * The dashboard's changes, in order, for the open streams. Each fragment is the whole new state of
 * its element, so a stream that (re)connects gets the current fragments first (`latest`) and loses
 * nothing it missed; a fragment it gets twice changes nothing.
 */
export class LiveHub {
  private seq = 0;
  private readonly current = new Map<string, LiveFragment>();
  private readonly listeners = new Set<(fragment: LiveFragment) => void>();

  /** `onStreams` is told how many streams are open whenever one opens or ends. */
  constructor(private readonly onStreams: (count: number) => void = () => undefined) {}

  /** The element's new HTML, to every stream; skipped (false) when it is what the streams have already. */
  publish(target: string, html: string): boolean {
    if (this.current.get(target)?.html === html) return false;
    const id = ++this.seq;
    const data = JSON.stringify({ target, html });
    // JSON has no raw line breaks: the data is one SSE line.
    const fragment = { id, target, html, data, frame: encoder.encode(`event: fragment\nid: ${id}\ndata: ${data}\n\n`) };
    this.current.set(target, fragment);
    for (const listener of this.listeners) listener(fragment);
    return true;
  }

  /** The latest fragment of each element, oldest first. */
  latest(): LiveFragment[] {
    return [...this.current.values()].sort((a, b) => a.id - b.id);
  }

  subscribe(listener: (fragment: LiveFragment) => void): () => void {
    this.listeners.add(listener);
    this.onStreams(this.listeners.size);
    return () => {
      if (this.listeners.delete(listener)) this.onStreams(this.listeners.size);
    };
  }

  get streams(): number {
    return this.listeners.size;
  }
}
