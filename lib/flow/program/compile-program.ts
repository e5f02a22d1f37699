/**
 * The compile check (the checks fugue's resolver makes): every name a program uses must
 * resolve. Variables are scoped lexically as in Rust (a `let` in a block shadows until
 * the block ends; an assignment needs an earlier binding); distributions must be
 * registered and called with their arity; no function is registered for flows; `break`
 * only inside a `for`. The first problem found is thrown as a ProgramError.
 */
import { ProgramError, tooDeep, unsupportedVersion } from "./program-error.js";
import { programDepth } from "./program-depth.js";
import { isBinary, MAX_NESTING, PROGRAM_FORMAT_VERSION, type DistCall, type Expr, type Program, type Stmt } from "./program-types.js";

/** The value type of a distribution's sites. */
export type SiteType = "usize" | "bool";

export interface DistributionSpec {
  site: SiteType;
  /** The exact number of arguments it takes. */
  arity: number;
}

/** The only distributions a flow's program may draw from. */
export const FLOW_DISTRIBUTIONS: ReadonlyMap<string, DistributionSpec> = new Map([
  ["Decide", { site: "usize", arity: 2 }],
  ["Outcome", { site: "bool", arity: 1 }],
]);

/** The data bound at each run: the call's tool id, whether it failed, the lookup cap. */
export const RUN_DATA_NAMES = ["call", "call_failed", "max_lookups"] as const;

/** Throws a ProgramError when `program` does not compile against `distributions` and `data`. */
export function checkProgram(
  program: Program,
  distributions: ReadonlyMap<string, DistributionSpec> = FLOW_DISTRIBUTIONS,
  data: readonly string[] = RUN_DATA_NAMES,
): void {
  if (program.fugue_program !== PROGRAM_FORMAT_VERSION) throw unsupportedVersion(program.fugue_program);
  const depth = programDepth(program);
  if (depth > MAX_NESTING) throw tooDeep(depth, MAX_NESTING);
  new Resolver(distributions, data).program(program);
}

class Resolver {
  private readonly scopes: Set<string>[];
  private loops = 0;

  constructor(
    private readonly distributions: ReadonlyMap<string, DistributionSpec>,
    data: readonly string[],
  ) {
    this.scopes = [new Set(data), new Set()];
  }

  program(p: Program): void {
    for (const s of p.body) this.stmt(s);
    this.expr(p.ret);
  }

  private bound(name: string): boolean {
    return this.scopes.some((scope) => scope.has(name));
  }

  private bind(name: string): void {
    this.scopes[this.scopes.length - 1]!.add(name);
  }

  private block(stmts: readonly Stmt[], loopVar?: string): void {
    this.scopes.push(new Set(loopVar === undefined ? [] : [loopVar]));
    try {
      for (const s of stmts) this.stmt(s);
    } finally {
      this.scopes.pop();
    }
  }

  private stmt(s: Stmt): void {
    switch (s.stmt) {
      case "sample":
        // Arguments first: `let p <- sample(.., D(p))` reads the outer `p`.
        if (s.addr.index) this.expr(s.addr.index);
        this.dist(s.dist);
        this.bind(s.var);
        return;
      case "let":
        this.expr(s.value);
        this.bind(s.var);
        return;
      case "assign":
        this.expr(s.value);
        if (!this.bound(s.var)) {
          throw new ProgramError(`cannot assign to unknown variable \`${s.var}\` (bind it with \`let\` first)`);
        }
        return;
      case "observe":
        if (s.addr.index) this.expr(s.addr.index);
        this.dist(s.dist);
        this.expr(s.value);
        return;
      case "factor":
        this.expr(s.logw);
        return;
      case "for":
        this.expr(s.start);
        this.expr(s.end);
        this.loops += 1;
        try {
          this.block(s.body, s.var);
        } finally {
          this.loops -= 1;
        }
        return;
      case "if":
        this.expr(s.cond);
        this.block(s.then);
        this.block(s.else ?? []);
        return;
      case "break":
        if (this.loops === 0) throw new ProgramError("`break` outside of a `for` loop");
        return;
    }
  }

  private dist(d: DistCall): void {
    const spec = this.distributions.get(d.name);
    if (spec === undefined) throw new ProgramError(`unknown distribution \`${d.name}\``);
    if (d.args.length !== spec.arity) {
      throw new ProgramError(`\`${d.name}\` takes ${spec.arity} argument(s), got ${d.args.length}`);
    }
    for (const a of d.args) this.expr(a);
  }

  private expr(e: Expr): void {
    if (isBinary(e)) {
      this.expr(e.lhs);
      this.expr(e.rhs);
      return;
    }
    switch (e.op) {
      case "f64":
      case "int":
      case "bool":
        return;
      case "var":
        if (!this.bound(e.name)) throw new ProgramError(`unknown variable \`${e.name}\``);
        return;
      case "array":
        for (const i of e.items) this.expr(i);
        return;
      case "index":
        this.expr(e.array);
        this.expr(e.index);
        return;
      case "len":
        this.expr(e.array);
        return;
      case "neg":
      case "not":
        this.expr(e.arg);
        return;
      case "call":
        // A flow's registry holds no functions.
        throw new ProgramError(`unknown function \`${e.func}\``);
    }
  }
}
