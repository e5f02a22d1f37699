/**
 * The learner's first pass over the episodes, made while they are read: the tools every
 * episode called (the vocab), the agent models (provenance), and, of the successful
 * episodes, how many there are and the fields their results offer (the field table's first
 * pass). Each part is a set or a count, so runs of sessions read on two threads give the
 * same first pass joined in any order; and the pass is made on each episode as it is read,
 * so the store is not read once more for it.
 */
import type { Episode } from "../trace/index.js";
import type { CodeField } from "../flow/ir/index.js";
import { steps } from "../flow/decide/index.js";
import { FieldTableBuilder } from "./field-table.js";
import { sessionEpisode, type EpisodeReading } from "./session-episode.js";
import { isSuccess } from "./training-set.js";
import { addCalledTools } from "./vocab.js";

/** A first pass as data, for a message between threads. */
export interface FirstPassDigest {
  called: string[];
  models: string[];
  successes: number;
  /** Per tool, the fields its results offer, by key. */
  offered: [string, [string, CodeField][]][];
}

export class FirstPass {
  readonly called = new Set<string>();
  readonly models = new Set<string>();
  successes = 0;
  /** Only offered to: its offers are what `FieldTableBuilder.offered` gives back. */
  private readonly fields = new FieldTableBuilder();

  constructor(private readonly reading: EpisodeReading) {}

  /** Reads one more episode as it was read from its log (not yet read as the learner reads it). */
  add(raw: Episode): void {
    const ep = sessionEpisode(raw, this.reading);
    addCalledTools(this.called, ep);
    this.models.add(ep.agent_model);
    if (!isSuccess(ep)) return;
    this.successes++;
    this.fields.offer(steps(ep));
  }

  digest(): FirstPassDigest {
    return { called: [...this.called], models: [...this.models], successes: this.successes, offered: this.fields.offered() };
  }
}

/** Two runs' first passes as one. */
export function joinDigests(a: FirstPassDigest, b: FirstPassDigest): FirstPassDigest {
  const offered = new Map(a.offered.map(([tool, fields]) => [tool, new Map(fields)]));
  for (const [tool, fields] of b.offered) {
    const into = offered.get(tool) ?? new Map<string, CodeField>();
    for (const [key, f] of fields) into.set(key, f);
    offered.set(tool, into);
  }
  return {
    called: [...new Set([...a.called, ...b.called])],
    models: [...new Set([...a.models, ...b.models])],
    successes: a.successes + b.successes,
    offered: [...offered].map(([tool, fields]) => [tool, [...fields]]),
  };
}
