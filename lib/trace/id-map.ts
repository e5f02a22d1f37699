/**
 * A map keyed by JSON-RPC id with JSON identity, the way JSON-RPC matches responses to
 * requests: the number `1` and the string `"1"` are different keys (a host may use both). Numbers and strings
 * key a Map directly (no text is made for them); any other id by its JSON text.
 */
import { jsonText, type Json } from "./json.js";

export class IdMap<V> {
  private readonly plain = new Map<string | number, V>();
  private readonly other = new Map<string, V>();

  get size(): number {
    return this.plain.size + this.other.size;
  }

  get(id: Json): V | undefined {
    return typeof id === "string" || typeof id === "number" ? this.plain.get(id) : this.other.get(jsonText(id));
  }

  set(id: Json, value: V): void {
    if (typeof id === "string" || typeof id === "number") this.plain.set(id, value);
    else this.other.set(jsonText(id), value);
  }

  delete(id: Json): boolean {
    return typeof id === "string" || typeof id === "number" ? this.plain.delete(id) : this.other.delete(jsonText(id));
  }
}
