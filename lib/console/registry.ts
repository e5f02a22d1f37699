/**
 * The console's registry of servers, `servers.json` in the data directory: what each server
 * is (a command or a URL), how its proxy runs (record, shadow or serve a flow) and where it
 * records. It holds environment variables by name, never a value. Written whole (a temporary
 * file, flushed, renamed over), one write at a time; a file that does not read is never
 * overwritten.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import type { ServerEntry, ServerInput } from "./api-types.js";
import { domainProblem } from "../init/index.js";
import { osErrorText } from "../util/os-errors.js";
import { isObject } from "../util/is-object.js";
import { writeWhole } from "../util/write-whole.js";
import { ApiFailure, badRequest } from "./http-kit.js";
import { PathError, requestPath } from "./data-paths.js";

export const REGISTRY_FORMAT = 1;
export const GUARD_DOMAINS = ["retail", "airline"];

const upstream = {
  oneOf: [
    {
      type: "object",
      required: ["kind", "command"],
      properties: { kind: { const: "stdio" }, command: { type: "array", items: { type: "string" } }, env: { type: "array", items: { type: "string" } } },
    },
    {
      type: "object",
      required: ["kind", "url"],
      properties: {
        kind: { const: "http" },
        url: { type: "string" },
        headers: { type: "array", items: { type: "object", required: ["name", "env"], properties: { name: { type: "string" }, env: { type: "string" } } } },
      },
    },
  ],
};
const nullable = (s: object) => ({ anyOf: [s, { type: "null" }] });
const inputSchema = {
  type: "object",
  required: ["name", "upstream", "mode"],
  properties: {
    name: { type: "string" },
    description: nullable({ type: "string" }),
    upstream,
    mode: { enum: ["record", "shadow", "serve"] },
    flow: nullable({ type: "string" }),
    record_dir: nullable({ type: "string" }),
    decider: nullable({ enum: ["arbiter", "habit", "reach"] }),
    threshold: nullable({ type: "number" }),
    surprise: nullable({
      oneOf: [
        { type: "object", required: ["kind"], properties: { kind: { const: "off" } } },
        { type: "object", required: ["kind", "nats"], properties: { kind: { const: "threshold" }, nats: { type: "number" } } },
      ],
    }),
    flow_tools: { type: "array", items: { type: "string" } },
    guards: { type: "boolean" },
    judge: nullable({ type: "object", required: ["mode", "context"], properties: { mode: { enum: ["log", "enforce"] }, context: { type: "string" } } }),
    commit: { type: "boolean" },
    retain_days: nullable({ type: "integer", minimum: 0 }),
    listen: nullable({ type: "object", required: ["addr"], properties: { addr: { type: "string" }, token_file: nullable({ type: "string" }) } }),
  },
} as const;
const fileSchema = {
  type: "object",
  required: ["stretto_servers", "servers"],
  properties: {
    stretto_servers: { type: "integer" },
    servers: { type: "array", items: { ...inputSchema, required: ["name", "upstream", "mode", "created_unix_ms", "updated_unix_ms"], properties: { ...inputSchema.properties, created_unix_ms: { type: "number" }, updated_unix_ms: { type: "number" } } } },
  },
} as const;

const ajv = new Ajv({ strict: false, allErrors: false });
let inputCheck: ValidateFunction | undefined;
let fileCheck: ValidateFunction | undefined;

function schemaError(v: ValidateFunction): string {
  const e = v.errors?.[0];
  return e === undefined ? "invalid" : `${e.instancePath || "/"} ${e.message ?? "is invalid"}`;
}

/** An entry as stored: every field present, defaults filled in. */
function complete(x: ServerInput, created: number, updated: number): ServerEntry {
  const blank = (s: string | null | undefined) => (s === undefined || s === null || s.trim() === "" ? null : s.trim());
  return {
    name: x.name,
    description: blank(x.description),
    upstream: x.upstream.kind === "stdio" ? { kind: "stdio", command: x.upstream.command, env: x.upstream.env ?? [] } : { kind: "http", url: x.upstream.url, headers: x.upstream.headers ?? [] },
    mode: x.mode,
    flow: blank(x.flow),
    record_dir: blank(x.record_dir),
    decider: x.decider ?? null,
    threshold: x.threshold ?? null,
    surprise: x.surprise ?? null,
    flow_tools: (x.flow_tools ?? []).map((t) => t.trim()).filter((t) => t !== ""),
    guards: x.guards ?? false,
    judge: x.judge === undefined || x.judge === null ? null : { mode: x.judge.mode, context: x.judge.context.trim() },
    commit: x.commit ?? false,
    retain_days: x.retain_days ?? null,
    listen: x.listen === undefined || x.listen === null ? null : { addr: x.listen.addr, token_file: blank(x.listen.token_file) },
    created_unix_ms: created,
    updated_unix_ms: updated,
  };
}

/** Whether `s` holds a control character (C0 or DEL). */
const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const CREDENTIAL = /key|token|secret|password|passwd|credential|auth/i;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

function credentialArg(words: readonly string[]): number {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const prev = i > 0 ? words[i - 1]! : "";
    const named = (n: string) => CREDENTIAL.test(n) && !/(file|path|dir)$/i.test(n);
    if (prev.startsWith("-") && !prev.includes("=") && named(prev.replace(/^-+/, "")) && !w.startsWith("-")) return i;
    const eq = /^-*([A-Za-z0-9_.-]+)=(.+)$/.exec(w);
    if (eq !== null && named(eq[1]!)) return i;
    if (/^authorization:/i.test(w) || /bearer /i.test(w)) return i;
  }
  return -1;
}

/** Checks an entry as the registry keeps it; a 400 with the reason otherwise. */
function validate(e: ServerEntry, data: string, home: string | undefined): void {
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(e.name)) {
    throw badRequest(`name ${JSON.stringify(e.name)}: the name is the server's in the host and the domain of its sessions and flows, so use a-z, 0-9, _ and -, starting with a letter or digit, at most 64`);
  }
  const domain = domainProblem(e.name);
  if (domain !== undefined) throw badRequest(domain);
  if (e.description !== null && e.description.length > 1000) throw badRequest("the description is longer than 1,000 characters");
  const envName = (v: string) => {
    if (!ENV_NAME.test(v)) throw badRequest(`${JSON.stringify(v)} is not an environment variable's name (letters, digits and _): the registry keeps variables by name, and their values stay in the environment`);
  };
  if (e.upstream.kind === "stdio") {
    const cmd = e.upstream.command;
    if (cmd.length === 0 || cmd[0]!.trim() === "") throw badRequest("the server's command is empty");
    if (cmd.length > 256 || cmd.some((a) => a.includes("\0") || Buffer.byteLength(a) > 4096)) throw badRequest("the server's command has too many or too long arguments");
    const i = credentialArg(cmd);
    if (i >= 0) {
      throw badRequest(`argument ${i + 1} of the command looks like a credential: pass it to the server through an environment variable, and list the variable's name in env (the registry keeps names, never values)`);
    }
    e.upstream.env.forEach(envName);
  } else {
    const url = e.upstream.url;
    if (!/^https?:\/\//i.test(url)) throw badRequest(`url ${JSON.stringify(url)}: expected http:// or https://`);
    if (url.length > 2048 || /\s/.test(url) || hasControl(url)) throw badRequest("the url is too long or holds whitespace");
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw badRequest(`url ${JSON.stringify(url)} names no host`);
    }
    if (u.hostname === "") throw badRequest(`url ${JSON.stringify(url)} names no host`);
    if (u.username !== "" || u.password !== "") throw badRequest("the url holds a user or a password: send credentials in a header, from an environment variable");
    for (const [name, value] of u.searchParams) {
      if (CREDENTIAL.test(name) && value !== "") throw badRequest(`the url's parameter ${JSON.stringify(name)} looks like a credential: send it in a header, from an environment variable`);
    }
    for (const h of e.upstream.headers) {
      if (!HEADER_NAME.test(h.name)) throw badRequest(`header ${JSON.stringify(h.name)} is not a header name`);
      envName(h.env);
    }
  }
  for (const [what, p] of [["flow", e.flow], ["record_dir", e.record_dir]] as const) {
    if (p === null) continue;
    try {
      requestPath(p, data, home);
    } catch (err) {
      if (err instanceof PathError) throw badRequest(`${what}: ${err.message}`);
      throw err;
    }
  }
  if (e.threshold !== null && !(Number.isFinite(e.threshold) && e.threshold >= 0 && e.threshold <= 1)) throw badRequest(`threshold ${e.threshold}: a probability, from 0 to 1`);
  if (e.surprise?.kind === "threshold" && !(Number.isFinite(e.surprise.nats) && e.surprise.nats > 0)) throw badRequest(`surprise ${e.surprise.nats}: a threshold in nats, above 0`);
  if (e.flow_tools.length > 256) throw badRequest("flow_tools: at most 256 tools");
  for (const t of e.flow_tools) if (t.length > 128 || /[,\s]/.test(t) || hasControl(t)) throw badRequest(`flow_tools: ${JSON.stringify(t)} is not a tool's name`);
  if (e.guards && !GUARD_DOMAINS.includes(e.name)) throw badRequest(`guards: there are no policy guards for ${e.name}; retail and airline have them`);
  if (e.judge !== null) {
    if (!e.guards) throw badRequest("the confirmation judge asks about the writes the guards check: turn the guards on");
    if (e.judge.context === "" || e.judge.context.length > 4096 || hasControl(e.judge.context)) throw badRequest("the judge's context: the file the host appends the conversation to");
  }
  if (e.retain_days === 0) throw badRequest("retain_days: at least one day");
}

export interface RegistryFile {
  stretto_servers: number;
  servers: ServerEntry[];
}

export class Registry {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly data: string,
    readonly home: string | undefined,
  ) {}

  get path(): string {
    return join(this.data, "servers.json");
  }

  /** The servers; a file that does not read is a 500 with why. */
  load(): ServerEntry[] {
    if (!existsSync(this.path)) return [];
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (e) {
      throw new ApiFailure(500, `reading servers.json: ${osErrorText(e)}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new ApiFailure(500, `servers.json is not a server registry: ${(e as Error).message}`);
    }
    if (isObject(doc) && typeof doc["stretto_servers"] === "number" && doc["stretto_servers"] !== REGISTRY_FORMAT) {
      throw new ApiFailure(500, `servers.json is format ${doc["stretto_servers"]}; this build reads ${REGISTRY_FORMAT}`);
    }
    fileCheck ??= ajv.compile(fileSchema);
    if (!fileCheck(doc)) throw new ApiFailure(500, `servers.json: ${schemaError(fileCheck)}`);
    return (doc as RegistryFile).servers.map((s) => complete(s, s.created_unix_ms, s.updated_unix_ms));
  }

  /** A request body as an entry; 400 when it is not one. */
  input(body: unknown, created: number, now: number): ServerEntry {
    inputCheck ??= ajv.compile(inputSchema);
    if (!inputCheck(body)) throw badRequest(`the server is not as expected: ${schemaError(inputCheck)}`);
    const entry = complete(body as ServerInput, created, now);
    validate(entry, this.data, this.home);
    return entry;
  }

  /** Runs `change` over the servers, one change at a time, and writes what it returns. */
  change<T>(change: (servers: ServerEntry[]) => { servers: ServerEntry[]; result: T }): Promise<T> {
    const run = this.queue.then(() => {
      const { servers, result } = change(this.load());
      this.write(servers);
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private write(servers: ServerEntry[]): void {
    try {
      writeWhole(this.path, `${JSON.stringify({ stretto_servers: REGISTRY_FORMAT, servers }, null, 2)}\n`);
    } catch (e) {
      throw new ApiFailure(500, `writing servers.json: ${osErrorText(e)}`);
    }
  }
}
