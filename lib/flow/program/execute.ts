/**
 * The interpreter: one program run as a generator of effects. It yields each `sample`
 * for its handler to answer with the site's value, and each `observe` and `factor` for
 * the driver to score; it returns the program's value. It is pure: given the same answers
 * it yields the same effects. As in fugue, a runtime error (a wrong type, a tool id
 * the flow does not have) is soft: the run's weight becomes -Infinity, a warning says
 * why, and the run goes on with a placeholder value.
 */
import { logProb, type RunModel, type SiteDistribution } from "./run-model.js";
import { isBinary, type Addr, type DistCall, type Expr, type Program, type Stmt } from "./program-types.js";
import {
  asBool,
  asF64,
  asInt,
  asUsize,
  bool,
  displayIndex,
  f64,
  fromSite,
  int,
  typeName,
  type SiteValue,
  type Value,
} from "./values.js";
import { errorText } from "../../util/error-text.js";
import { keepNewest } from "../../util/keep-newest.js";

export type Effect =
  | { kind: "sample"; address: string; dist: SiteDistribution }
  | { kind: "observe"; address: string; dist: SiteDistribution; logp: number }
  | { kind: "factor"; logw: number; warning?: string };

/** The data bound at each run. */
export interface RunData {
  /** The id of the tool whose call just returned. */
  call: number;
  /** JSON-free name: `call_failed`. */
  callFailed: boolean;
  /** JSON-free name: `max_lookups`. */
  maxLookups: number;
}

type Run<T> = Generator<Effect, T, SiteValue>;
const BREAK = Symbol("break");

class RuntimeError extends Error {}

export function* execute(program: Program, model: RunModel, names: readonly string[], data: RunData): Run<Value> {
  const ex = new Execution(model, names, [
    new Map<string, Value>([
      ["call", int(data.call)],
      ["call_failed", bool(data.callFailed)],
      ["max_lookups", int(data.maxLookups)],
    ]),
    new Map<string, Value>(),
  ]);
  // The body runs in the program's own scope, which `pure(..)` still sees.
  yield* ex.stmts(program.body);
  try {
    return ex.eval(program.ret);
  } catch (err) {
    yield reject(`\`pure\`: ${errorText(err)}`);
    return f64(NaN);
  }
}

function reject(warning: string): Effect {
  return { kind: "factor", logw: -Infinity, warning };
}

class Execution {
  constructor(
    private readonly model: RunModel,
    private readonly names: readonly string[],
    private readonly scopes: Map<string, Value>[],
  ) {
    // Keeps the instances' V8 map across full collections (see keep-newest.ts).
    keepNewest(this);
  }

  /**
   * Runs statements in a fresh scope; says whether a `break` left it. Statements that bind
   * nothing in it (no `let`, no `sample`, no loop variable) run in the scope around them,
   * which finds and assigns every name alike.
   */
  *block(stmts: readonly Stmt[], loopVar?: [string, Value]): Run<typeof BREAK | undefined> {
    if (loopVar === undefined && !bindsIn(stmts)) return yield* this.stmts(stmts);
    const scope = new Map<string, Value>();
    if (loopVar !== undefined) scope.set(loopVar[0], loopVar[1]);
    this.scopes.push(scope);
    try {
      return yield* this.stmts(stmts);
    } finally {
      this.scopes.pop();
    }
  }

  /**
   * Runs statements in the current scope; says whether a `break` left them. All but `for`,
   * `factor` and `observe` run here rather than in a generator of their own: a live run
   * goes through them after every call.
   */
  *stmts(stmts: readonly Stmt[]): Run<typeof BREAK | undefined> {
    for (const s of stmts) {
      switch (s.stmt) {
        case "break":
          return BREAK;
        case "let":
        case "assign": {
          let v: Value;
          try {
            v = this.eval(s.value);
          } catch (err) {
            v = f64(NaN);
            yield reject(`\`${s.var}\`: ${errorText(err)}`);
          }
          if (s.stmt === "let") this.bind(s.var, v);
          else this.assign(s.var, v);
          continue;
        }
        case "if": {
          let cond: boolean;
          try {
            cond = this.truth(this.eval(s.cond));
          } catch (err) {
            yield reject(`\`if\` condition: ${errorText(err)}`);
            continue;
          }
          const branch = cond ? s.then : s.else;
          if (branch !== undefined && branch.length > 0 && (yield* this.block(branch)) === BREAK) return BREAK;
          continue;
        }
        case "sample": {
          let address: string;
          let dist: SiteDistribution;
          try {
            address = this.address(s.addr);
            dist = this.dist(s.dist);
          } catch (err) {
            this.bind(s.var, placeholder(s.dist.name));
            yield reject(`sample \`${s.var}\`: ${errorText(err)}`);
            continue;
          }
          const value = yield { kind: "sample", address, dist };
          this.bind(s.var, fromSite(value));
          continue;
        }
        default:
          if ((yield* this.stmt(s)) === BREAK) return BREAK;
      }
    }
    return undefined;
  }

  private bind(name: string, v: Value): void {
    this.scopes[this.scopes.length - 1]!.set(name, v);
  }

  private assign(name: string, v: Value): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      if (this.scopes[i]!.has(name)) {
        this.scopes[i]!.set(name, v);
        return;
      }
    }
  }

  private *stmt(s: Extract<Stmt, { stmt: "for" | "factor" | "observe" }>): Run<typeof BREAK | undefined> {
    switch (s.stmt) {
      case "for": {
        let start: number;
        let end: number;
        try {
          start = this.bound(s.start);
          end = this.bound(s.end);
        } catch (err) {
          yield reject(`\`for ${s.var}\`: ${errorText(err)}`);
          return undefined;
        }
        for (let i = start; i < end; i++) {
          if ((yield* this.block(s.body, [s.var, int(i)])) === BREAK) break;
        }
        return undefined;
      }
      case "factor": {
        let logw: number;
        try {
          const v = this.eval(s.logw);
          const x = asF64(v);
          if (x === undefined) throw new RuntimeError(`expected a number, found ${typeName(v)}`);
          logw = Number.isNaN(x) ? -Infinity : x;
        } catch (err) {
          yield reject(`\`factor\`: ${errorText(err)}`);
          return undefined;
        }
        yield { kind: "factor", logw };
        return undefined;
      }
      case "observe": {
        let address: string;
        let dist: SiteDistribution;
        let observed: Value;
        try {
          address = this.address(s.addr);
          observed = this.eval(s.value);
          dist = this.dist(s.dist);
        } catch (err) {
          yield reject(`observe \`${s.addr.name}\`: ${errorText(err)}`);
          return undefined;
        }
        const value = dist.kind === "decide" ? asUsize(observed) : asBool(observed);
        if (value === undefined) {
          yield reject(`observe at \`${address}\`: observed value ${displayIndex(observed)} is not a valid ${dist.kind === "decide" ? "usize" : "bool"}`);
          return undefined;
        }
        yield { kind: "observe", address, dist, logp: logProb(dist, value) };
        return undefined;
      }
    }
  }

  private address(a: Addr): string {
    if (a.index === undefined) return a.name;
    const ix = this.eval(a.index);
    if (ix.t === "arr") throw new RuntimeError(`the index of \`addr!("${a.name}", ..)\` must be a scalar, found an array`);
    return `${a.name}#${displayIndex(ix)}`;
  }

  private tool(id: Value): string {
    const i = asUsize(id);
    const name = i === undefined ? undefined : this.names[i];
    if (name === undefined) throw new RuntimeError(`no tool has the id ${displayIndex(id)}`);
    return name;
  }

  /** Builds `Decide(prev, failed)` or `Outcome(d)` (the compile check vouched for the name and arity). */
  private dist(d: DistCall): SiteDistribution {
    const args = d.args.map((a) => this.eval(a));
    if (d.name === "Decide") {
      const failed = asBool(args[1]!);
      if (failed === undefined) throw new RuntimeError("`Decide` takes whether the call failed");
      return this.model.decide(this.tool(args[0]!), failed);
    }
    return this.model.outcome(this.tool(args[0]!));
  }

  private bound(e: Expr): number {
    const v = this.eval(e);
    const i = asInt(v);
    if (i === undefined) throw new RuntimeError(`range bound must be an integer, found ${displayIndex(v)}`);
    return i;
  }

  private truth(v: Value): boolean {
    const b = asBool(v);
    if (b === undefined) throw new RuntimeError(v.t === "arr" ? "expected a bool, found an array" : "NaN is neither true nor false");
    return b;
  }

  private lookup(name: string): Value {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(name);
      if (v !== undefined) return v;
    }
    throw new RuntimeError(`unknown variable \`${name}\``);
  }

  eval(e: Expr): Value {
    if (isBinary(e)) return this.binary(e.op, e.lhs, e.rhs);
    switch (e.op) {
      case "f64":
        return f64(e.value);
      case "int":
        return int(e.value);
      case "bool":
        return bool(e.value);
      case "var":
        return this.lookup(e.name);
      case "array":
        return {
          t: "arr",
          v: e.items.map((item) => {
            const v = this.eval(item);
            const x = asF64(v);
            if (x === undefined) throw new RuntimeError(`array elements must be numbers, found ${typeName(v)}`);
            return x;
          }),
        };
      case "index": {
        const arr = this.eval(e.array);
        const idx = this.eval(e.index);
        if (arr.t !== "arr") throw new RuntimeError(`cannot index a ${typeName(arr)}`);
        const i = asInt(idx);
        if (i === undefined) throw new RuntimeError(`array index must be an integer, found ${displayIndex(idx)}`);
        if (i < 0 || i >= arr.v.length) throw new RuntimeError(`index ${i} out of bounds (len ${arr.v.length})`);
        return f64(arr.v[i]!);
      }
      case "len": {
        const arr = this.eval(e.array);
        if (arr.t !== "arr") throw new RuntimeError(`\`.len()\` on a ${typeName(arr)}`);
        return int(arr.v.length);
      }
      case "neg": {
        const v = this.eval(e.arg);
        if (v.t === "int") return int(-v.v);
        if (v.t === "f64") return f64(-v.v);
        throw new RuntimeError(`\`-\` needs numbers, found ${typeName(v)}`);
      }
      case "not":
        return bool(!this.truth(this.eval(e.arg)));
      case "call":
        throw new RuntimeError(`unknown function \`${e.func}\``);
    }
  }

  private binary(op: string, lhs: Expr, rhs: Expr): Value {
    if (op === "and") return bool(this.truth(this.eval(lhs)) && this.truth(this.eval(rhs)));
    if (op === "or") return bool(this.truth(this.eval(lhs)) || this.truth(this.eval(rhs)));
    const a = this.eval(lhs);
    const b = this.eval(rhs);
    if ((op === "eq" || op === "ne") && a.t === "bool" && b.t === "bool") return bool((a.v === b.v) === (op === "eq"));
    const symbol = SYMBOLS[op] ?? op;
    if (a.t === "arr" || b.t === "arr" || a.t === "bool" || b.t === "bool") {
      throw new RuntimeError(`\`${symbol}\` needs numbers, found ${typeName(a.t === "arr" || a.t === "bool" ? a : b)}`);
    }
    const bothInt = a.t === "int" && b.t === "int";
    switch (op) {
      case "add":
        return bothInt ? int(a.v + b.v) : f64(a.v + b.v);
      case "sub":
        return bothInt ? int(a.v - b.v) : f64(a.v - b.v);
      case "mul":
        return bothInt ? int(a.v * b.v) : f64(a.v * b.v);
      case "div":
        return f64(a.v / b.v);
      case "eq":
        return bool(a.v === b.v);
      case "ne":
        return bool(a.v !== b.v);
      case "lt":
        return bool(a.v < b.v);
      case "le":
        return bool(a.v <= b.v);
      case "gt":
        return bool(a.v > b.v);
      default:
        return bool(a.v >= b.v);
    }
  }
}

const SYMBOLS: Record<string, string> = {
  add: "+", sub: "-", mul: "*", div: "/", eq: "==", ne: "!=", lt: "<", le: "<=", gt: ">", ge: ">=",
};

/** Whether statements bind a name in their own scope (`let`, `sample`); kept per statement list, which a program never changes. */
const binds = new WeakMap<readonly Stmt[], boolean>();
function bindsIn(stmts: readonly Stmt[]): boolean {
  let b = binds.get(stmts);
  if (b === undefined) binds.set(stmts, (b = stmts.some((s) => s.stmt === "let" || s.stmt === "sample")));
  return b;
}

/** The value a failed sample binds: its site type's zero. */
function placeholder(dist: string): Value {
  return dist === "Outcome" ? bool(false) : int(0);
}
