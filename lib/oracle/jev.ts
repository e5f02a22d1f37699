import { STATUS_CODES } from "node:http";
import { rootCertificates } from "node:tls";
import type { Got } from "got";
import { VERSION } from "../version.js";
import type { ApiKey } from "./api-key.js";
import { OracleError, parseResponse, type Oracle, type OracleRequest, type OracleResponse } from "./oracle.js";
import { errorText } from "../util/error-text.js";

export const DEFAULT_BASE_URL = "https://api.typesafe.ai";

/** 30 s for the whole exchange. */
export const JEV_TIMEOUT_MS = 30_000;

/** Up to 4 retries, waiting 1, 2, 4 and 8 s before each. */
export const JEV_BACKOFF_MS: readonly number[] = [1000, 2000, 4000, 8000];

/** Statuses worth asking again: rate limited, overloaded, or a failing server or gateway. */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

/** Failures to connect or to answer in time (reqwest's `is_connect() || is_timeout()`). */
const RETRIED_CODES: ReadonlySet<string> = new Set([
  "ETIMEDOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

export type Sleep = (ms: number) => Promise<void>;

/**
 * got, loaded with the first question rather than with the proxy: loading it costs about
 * 150 ms of CPU, which every `--flow` start paid, though only the arbiter asks Jev.
 */
let gotModule: Promise<typeof import("got")> | undefined;
const loadGot = (): Promise<typeof import("got")> => (gotModule ??= import("got"));

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface JevOptions {
  /** `TYPESAFE_BASE_URL` or {@link DEFAULT_BASE_URL}; trailing `/` are trimmed. */
  baseUrl: string;
  apiKey: ApiKey;
  /** Waits between attempts (tests pass one that only records). */
  sleep?: Sleep;
  /** The HTTP client (got 14); its own retries are switched off per request. */
  http?: Got;
  timeoutMs?: number;
  backoffMs?: readonly number[];
  /** PEM text of extra trusted roots (`SSL_CERT_FILE`), added to Node's own. */
  extraCa?: string;
}

/** `TYPESAFE_BASE_URL` (trailing `/` trimmed), or the public API when unset or empty. */
export function jevBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const base = env["TYPESAFE_BASE_URL"] || DEFAULT_BASE_URL;
  return base.replace(/\/+$/, "");
}

/**
 * TypeSafe's Jev over HTTP (docs/flows.md, "The System-One model"): `POST {base}/v1/systemone` with
 * `Authorization: Bearer <key>` and the request as its JSON body. Retries 429, 500, 502,
 * 503, 504, 529 and connect/timeout failures after 1, 2, 4, 8 s. Failure reasons:
 * - no key: the key's reason (e.g. `TYPESAFE_API_KEY is not set`), and nothing is sent;
 * - another status, or the last retry's: `TypeSafe returned 503 Service Unavailable: <body>`
 *   (the status as Rust prints it: code and canonical reason, `<unknown status code>` for 529);
 * - no answer: `sending request to TypeSafe: <cause>`;
 * - an answer that is not one: `decoding TypeSafe response: <cause>`.
 */
export class JevClient implements Oracle {
  readonly kind = "jev" as const;
  readonly url: string;
  private readonly sleep: Sleep;
  private readonly timeoutMs: number;
  private readonly backoffMs: readonly number[];

  constructor(private readonly options: JevOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/v1/systemone`;
    this.sleep = options.sleep ?? realSleep;
    this.timeoutMs = options.timeoutMs ?? JEV_TIMEOUT_MS;
    this.backoffMs = options.backoffMs ?? JEV_BACKOFF_MS;
  }

  async ask(request: OracleRequest): Promise<OracleResponse> {
    const apiKey = this.options.apiKey;
    if (!("key" in apiKey)) throw new OracleError(apiKey.missing);
    const body = JSON.stringify(request);
    const { default: got, RequestError } = await loadGot();
    const http = this.options.http ?? got;
    const isTransient = (err: unknown): boolean => err instanceof RequestError && err.code !== undefined && RETRIED_CODES.has(err.code);
    for (let attempt = 0; ; attempt++) {
      const retry = attempt < this.backoffMs.length ? this.backoffMs[attempt] : undefined;
      let status: number;
      let text: string;
      try {
        const response = await http.post(this.url, {
          body,
          headers: {
            authorization: `Bearer ${apiKey.key}`,
            "content-type": "application/json",
            accept: "application/json",
            "user-agent": `stretto-proxy/${VERSION}`,
          },
          timeout: { request: this.timeoutMs },
          retry: { limit: 0 },
          throwHttpErrors: false,
          responseType: "text",
          ...(this.options.extraCa === undefined
            ? {}
            : { https: { certificateAuthority: [...rootCertificates, this.options.extraCa] } }),
        });
        status = response.statusCode;
        text = response.body;
      } catch (err) {
        if (retry !== undefined && isTransient(err)) {
          await this.sleep(retry);
          continue;
        }
        throw new OracleError(`sending request to TypeSafe: ${errorText(err)}`);
      }
      if (status >= 200 && status < 300) {
        try {
          return parseResponse(text);
        } catch (err) {
          throw new OracleError(`decoding TypeSafe response: ${errorText(err)}`);
        }
      }
      if (retry !== undefined && RETRIED_STATUSES.has(status)) {
        await this.sleep(retry);
        continue;
      }
      throw new OracleError(`TypeSafe returned ${statusText(status)}: ${text}`);
    }
  }
}

/** `503 Service Unavailable`, as Rust's `http::StatusCode` displays a status. */
export function statusText(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? "<unknown status code>"}`;
}
