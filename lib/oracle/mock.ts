import type { Answer, Oracle, OracleRequest, OracleResponse } from "./oracle.js";

export interface MockSettings {
  /** Probability put on the first option of every choice, and its confidence (0.6). */
  confidence: number;
  /** The probability every yes/no question gets (0.5). */
  noul: number;
}

/**
 * What the proxy and `learn` use. Fixed, so a flow learned with `--oracle mock` decides the
 * same when served with it, and specs can state the figures it gives.
 */
export const MOCK_DEFAULTS: MockSettings = { confidence: 0.6, noul: 0.5 };

/**
 * `--oracle mock` (docs/flows.md, "The System-One model"): deterministic, never
 * cached, asks no one.
 * - a yes/no question gets `noul`;
 * - a choice picks its first option in byte order (a Rust `BTreeMap`'s order) with
 *   probability `confidence`; the others share the rest equally (one option: it alone);
 * - a score gets level 0 with probability 1, score 0, confidence 1, legend null.
 * The model is `mock`; usage is zero. Answers come in the request's question order, sorted.
 */
export class MockOracle implements Oracle {
  readonly kind = "mock" as const;
  private readonly settings: MockSettings;

  constructor(settings: Partial<MockSettings> = {}) {
    this.settings = { ...MOCK_DEFAULTS, ...settings };
  }

  ask(request: OracleRequest): Promise<OracleResponse> {
    const answers: Record<string, Answer> = {};
    for (const id of byteOrder(Object.keys(request.questions))) {
      define(answers, id, this.answer(request.questions[id]!));
    }
    return Promise.resolve({ model: "mock", answers, usage: { input_tokens: 0, output_tokens: 0 } });
  }

  private answer(question: OracleRequest["questions"][string]): Answer {
    const { confidence, noul } = this.settings;
    switch (question.type) {
      case "noul":
        return { type: "noul", noul };
      case "choice": {
        const options = byteOrder(Object.keys(question.criteria));
        const first = options[0] ?? "";
        const rest = options.length > 1 ? (1 - confidence) / (options.length - 1) : 0;
        const probabilities: Record<string, number> = {};
        for (const option of options) define(probabilities, option, option === first ? confidence : rest);
        return { type: "choice", choice: first, probabilities, confidence };
      }
      case "score": {
        const probabilities: Record<string, number> = {};
        question.criteria.forEach((_, i) => define(probabilities, String(i), i === 0 ? 1 : 0));
        return { type: "score", score: 0, probabilities, confidence: 1, legend: null };
      }
    }
  }
}

/** Sorted by UTF-8 bytes, as Rust orders `String` keys. */
function byteOrder(keys: string[]): string[] {
  return [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** Sets `key` as an own property even when it is `__proto__`. */
function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
