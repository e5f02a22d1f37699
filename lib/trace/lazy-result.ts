/**
 * A tool result event whose content text is made when it is first read. A result without
 * text items (a record, `structuredContent`) has its sorted JSON as content; a reader that
 * wants the record itself (the guards' facts) takes `reading.value` and no text is made or
 * parsed back. Only for followers that read each event as it is handed and keep none
 * (`EpisodeFollower.keepsNoEvents`): `content` is a getter, not an own property, so
 * serializing or comparing the event whole would not see it.
 */
import type { ToolResultEvent } from "./episode-types.js";
import { jsonText } from "./json.js";
import type { ResultReading } from "./outcome.js";

export class LazyToolResult implements ToolResultEvent {
  readonly kind = "tool_result";
  readonly error: boolean;
  private text: string | undefined;

  constructor(
    readonly call_id: string,
    readonly name: string,
    readonly reading: ResultReading,
  ) {
    this.error = reading.error;
    this.text = reading.text;
  }

  get content(): string {
    if (this.text === undefined) this.text = jsonText(this.reading.value);
    return this.text;
  }
}
