/**
 * The live Streamable HTTP sessions: each id with the protocol version agreed at
 * `initialize`. Ids are `demo-session-1`, `-2`, … across the server's life.
 */
export class Sessions {
  private next = 0;
  private readonly live = new Map<string, string>();
  private readonly watchers = new Map<string, Set<() => void>>();

  open(version: string): string {
    this.next += 1;
    const id = `demo-session-${this.next}`;
    this.live.set(id, version);
    return id;
  }

  /** The version agreed for a live session; undefined when unknown or deleted. */
  version(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.live.get(id);
  }

  /** Deletes a session, if live, and tells whoever waits on it. */
  delete(id: string): void {
    this.live.delete(id);
    const waiting = this.watchers.get(id);
    this.watchers.delete(id);
    for (const done of waiting ?? []) done();
  }

  /** Calls `done` once when the session is deleted; returns a function that stops waiting. */
  onDelete(id: string, done: () => void): () => void {
    let set = this.watchers.get(id);
    if (set === undefined) this.watchers.set(id, (set = new Set()));
    set.add(done);
    return () => {
      set.delete(done);
      if (set.size === 0 && this.watchers.get(id) === set) this.watchers.delete(id);
    };
  }
}
