import type { Frame } from "../frame.js";
import type { OwnAnswer } from "./api.js";
import type { RpcResponse } from "./json-rpc.js";

export const OWN_ID_PREFIX = "stretto-";
/** How long the proxy waits for the answer to one of its own requests, unless the request names its own patience. */
export const DEFAULT_PATIENCE_MS = 60_000;

interface Waiting {
  resolve: (a: OwnAnswer) => void;
  timer: NodeJS.Timeout;
  /** Resolves once the id is free again (answered or abandoned). */
  freed: Promise<void>;
  free: () => void;
}

/**
 * The proxy's own requests to the server: ids `stretto-<n>` from one counter per session
 * (incremented before use), each awaited with a patience limit.
 *
 * A host may use ids of the same shape. So an own id skips any id the host has in flight,
 * a host request reusing an own id still in flight waits until that one is answered or
 * abandoned (the bus holds it), and an id is the proxy's only while its request is open,
 * or, after patience ran out, until its late answer comes (logged, forwarded to no one) or
 * the host takes the id for a request of its own.
 */
export class OwnRequests {
  private counter = 0;
  private readonly waiting = new Map<string, Waiting>();
  /** Own ids whose patience ran out, still awaiting a late answer. */
  private readonly late = new Set<string>();
  /** The host's own requests in flight with ids of our shape. */
  private readonly hostInFlight = new Set<string>();

  /** The id the next request will take. */
  peekId(): string {
    let n = this.counter + 1;
    while (this.taken(`${OWN_ID_PREFIX}${n}`)) n++;
    return `${OWN_ID_PREFIX}${n}`;
  }

  /** Allocates an id and starts waiting for its answer. */
  open(patienceMs = DEFAULT_PATIENCE_MS): { id: string; answer: Promise<OwnAnswer> } {
    const id = this.peekId();
    this.counter = Number(id.slice(OWN_ID_PREFIX.length));
    const answer = new Promise<OwnAnswer>((resolve) => {
      let free = () => {};
      const freed = new Promise<void>((r) => (free = r));
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        this.late.add(id);
        free();
        resolve({ kind: "no-answer", why: "patience" });
      }, patienceMs);
      this.waiting.set(id, { resolve, timer, freed, free });
    });
    return { id, answer };
  }

  /**
   * A host request with a string id of our shape: noted, and, if an own request holds that
   * id right now, the promise to wait for before the host's request may go on.
   */
  hostRequest(id: string): Promise<void> | undefined {
    this.late.delete(id);
    this.hostInFlight.add(id);
    return this.waiting.get(id)?.freed;
  }

  /** Whether a server response belongs to the proxy (and so must not reach the host). */
  owns(response: RpcResponse): boolean {
    if (typeof response.id !== "string") return false;
    return this.waiting.has(response.id) || (this.late.has(response.id) && !this.hostInFlight.has(response.id));
  }

  /** Hands an answer to whoever waits for it; true if it was one of ours. */
  settle(response: RpcResponse, frame: Frame): boolean {
    if (typeof response.id !== "string") return false;
    const id = response.id;
    const w = this.waiting.get(id);
    if (w) {
      clearTimeout(w.timer);
      this.waiting.delete(id);
      w.free();
      w.resolve({ kind: "answer", response, frame });
      return true;
    }
    if (this.late.delete(id) && !this.hostInFlight.has(id)) return true;
    // The host's own request with this id has its answer.
    this.hostInFlight.delete(id);
    return false;
  }

  /** The server is gone: nobody will answer what is still waiting. */
  abandonAll(): void {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.free();
      w.resolve({ kind: "no-answer", why: "server-gone" });
      this.waiting.delete(id);
    }
    this.late.clear();
  }

  get pending(): number {
    return this.waiting.size;
  }

  private taken(id: string): boolean {
    return this.waiting.has(id) || this.late.has(id) || this.hostInFlight.has(id);
  }
}
