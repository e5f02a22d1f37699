import type { Frame } from "../bus/frame.js";
import type { OwnAnswer } from "./api.js";
import type { RpcResponse } from "./json-rpc.js";

export const OWN_ID_PREFIX = "stretto-";
export const DEFAULT_PATIENCE_MS = 60_000;

interface Waiting {
  resolve: (a: OwnAnswer) => void;
  timer: NodeJS.Timeout;
}

/**
 * The proxy's own requests to the server: ids `stretto-<n>` from one counter per session
 * (incremented before use), each awaited with a patience limit. An answer that comes after
 * its patience ran out is still logged by the bus, but forwarded to no one.
 */
export class OwnRequests {
  private counter = 0;
  private readonly waiting = new Map<string, Waiting>();
  private readonly issued = new Set<string>();

  /** The id the next request will take. */
  peekId(): string {
    return `${OWN_ID_PREFIX}${this.counter + 1}`;
  }

  /** Allocates an id and starts waiting for its answer. */
  open(patienceMs = DEFAULT_PATIENCE_MS): { id: string; answer: Promise<OwnAnswer> } {
    const id = `${OWN_ID_PREFIX}${++this.counter}`;
    this.issued.add(id);
    const answer = new Promise<OwnAnswer>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ kind: "no-answer", why: "patience" });
      }, patienceMs);
      this.waiting.set(id, { resolve, timer });
    });
    return { id, answer };
  }

  /** Whether a server response belongs to the proxy (and so must not reach the host). */
  owns(response: RpcResponse): boolean {
    return typeof response.id === "string" && this.issued.has(response.id);
  }

  /** Hands an answer to whoever waits for it; true if it was one of ours. */
  settle(response: RpcResponse, frame: Frame): boolean {
    if (!this.owns(response)) return false;
    const w = this.waiting.get(response.id as string);
    if (w) {
      clearTimeout(w.timer);
      this.waiting.delete(response.id as string);
      w.resolve({ kind: "answer", response, frame });
    }
    return true;
  }

  /** The server is gone: nobody will answer what is still waiting. */
  abandonAll(): void {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.resolve({ kind: "no-answer", why: "server-gone" });
      this.waiting.delete(id);
    }
  }

  get pending(): number {
    return this.waiting.size;
  }
}
