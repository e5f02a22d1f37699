/**
 * An Episode as JSON text, written event by event: a long session's episode never has to
 * be one string (V8 caps strings at about 512 MiB). The pieces join to exactly
 * `JSON.stringify(episode, null, indent)`.
 */
import type { Episode } from "../../trace/index.js";

export function* episodeJson(ep: Episode, indent = 0): Generator<string> {
  const { events, ...head } = ep;
  const space = indent > 0 ? indent : undefined;
  // The head with an empty event list; `events` is the last key, so `[]` then ends the text.
  const shell = JSON.stringify({ ...head, events: [] }, null, space);
  if (events.length === 0) {
    yield shell;
    return;
  }
  const tail = indent > 0 ? "[]\n}" : "[]}";
  yield shell.slice(0, shell.length - tail.length) + "[";
  const pad = indent > 0 ? "\n" + " ".repeat(2 * indent) : "";
  for (let i = 0; i < events.length; i++) {
    const text = JSON.stringify(events[i], null, space);
    yield (i === 0 ? "" : ",") + pad + (indent > 0 ? text.replace(/\n/g, pad) : text);
  }
  yield indent > 0 ? `\n${" ".repeat(indent)}]\n}` : "]}";
}
