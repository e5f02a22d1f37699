/**
 * Which parts of a log's entries are data, and the walk that hands them to a visitor. One
 * walker per log, fed its entries in order: whether a response is a tool's result depends
 * on the request it answers, which came before it.
 *
 * Data: the arguments of every `tools/call` (the host's and the proxy's own); the results
 * of those calls (each text item as JSON or line by line, `structuredContent`, the error's
 * message and data); the server's requests and notifications (`params`) and its other
 * error answers; what the host answered the server's requests; the responses the proxy
 * wrote to the host itself (refusals, commit reports, its copy of a result with a flow's
 * lookups appended: see proxy-text.ts); the conversation (`context` entries) and lines
 * that are not JSON, word by word. Kept as they are: `initialize`, `tools/list` (read for
 * the names the tools declare), other requests and their answers, times, the header.
 */
import { IdMap } from "../trace/id-map.js";
import { isObject, type Json, type JsonObject } from "../trace/json.js";
import type { LogEntry } from "../trace/log-types.js";
import { documentValues, toolText } from "./json-values.js";
import { proxyText } from "./proxy-text.js";
import type { Visitor } from "./visitor.js";

export class EntryWalk {
  /** The method of each request the host or the proxy sent, by id. */
  private readonly sent = new IdMap<string>();
  /** The `tools/call`s the server has answered: a later answer by the proxy is its copy. */
  private readonly answered = new IdMap<true>();

  constructor(private readonly v: Visitor) {}

  /** `entry` with its data rewritten by the visitor (the same object when nothing is data). */
  entry(entry: LogEntry): LogEntry {
    if (entry.message === undefined) {
      return entry.raw === undefined ? entry : { ...entry, raw: this.v.words(entry.raw) };
    }
    const m = entry.message;
    const message = Array.isArray(m) ? m.map((item) => this.message(entry.from, item)) : this.message(entry.from, m);
    return { ...entry, message };
  }

  private message(from: LogEntry["from"], m: Json): Json {
    if (!isObject(m)) return m;
    if (from === "context") return withString(m, "content", (text) => this.v.words(text));
    const method = typeof m["method"] === "string" ? m["method"] : undefined;
    const id = m["id"] === undefined || m["id"] === null ? undefined : m["id"];
    if (method !== undefined) {
      if (from === "server") return this.errorOf(withDocument(m, "params", this.v));
      if (id !== undefined) {
        // A reused id starts a new call: the proxy's answer to it is its own, not a copy.
        this.sent.set(id, method);
        this.answered.delete(id);
      }
      return method === "tools/call" ? this.call(m) : m;
    }
    const asked = id === undefined ? undefined : this.sent.get(id);
    if (from === "client") return this.errorOf(withDocument(m, "result", this.v));
    if (asked === "tools/call") {
      const copy = from === "proxy" && this.answered.get(id!) === true;
      if (from === "server") this.answered.set(id!, true);
      return this.result(m, from === "server" ? "server" : copy ? "copy" : "proxy");
    }
    if (m["error"] !== undefined) return this.errorOf(m);
    if (asked === "tools/list") {
      const result = m["result"];
      if (result !== undefined) this.v.listing(result);
    }
    return m;
  }

  private call(m: JsonObject): JsonObject {
    const params = m["params"];
    if (!isObject(params) || params["arguments"] === undefined) return m;
    return { ...m, params: withDocument(params, "arguments", this.v) };
  }

  /**
   * A tool's result. The server's text items are a tool's text. The proxy's own answer is
   * its own text; its copy of the server's result holds the server's items, rewritten as
   * they were, then the appendix.
   */
  private result(m: JsonObject, by: "server" | "proxy" | "copy"): JsonObject {
    let out = m;
    const result = m["result"];
    if (isObject(result)) {
      let r = result;
      const content = r["content"];
      if (Array.isArray(content)) {
        const last = content.length - 1;
        const items = content.map((item, i) =>
          withString(item, "text", (text) => (by === "server" || (by === "copy" && i < last) ? toolText(text, this.v) : proxyText(text, this.v))),
        );
        r = { ...r, content: items };
      }
      r = withDocument(r, "structuredContent", this.v);
      out = { ...m, result: r };
    }
    return this.errorOf(out);
  }

  /** An error's message as running text, its data as data. */
  private errorOf(m: JsonObject): JsonObject {
    const error = m["error"];
    if (!isObject(error)) return m;
    const e = withDocument(withString(error, "message", (text) => this.v.words(text)), "data", this.v);
    return { ...m, error: e };
  }
}

/** `o` with the string at `key` rewritten (`o` itself when there is none). */
function withString(o: JsonObject, key: string, rewrite: (text: string) => string): JsonObject;
function withString(o: Json, key: string, rewrite: (text: string) => string): Json;
function withString(o: Json, key: string, rewrite: (text: string) => string): Json {
  if (!isObject(o)) return o;
  const s = o[key];
  return typeof s === "string" ? { ...o, [key]: rewrite(s) } : o;
}

/** `o` with the JSON at `key` rewritten as data (`o` itself when there is none). */
function withDocument(o: JsonObject, key: string, v: Visitor): JsonObject {
  const doc = o[key];
  return doc === undefined ? o : { ...o, [key]: documentValues(doc, v) };
}
