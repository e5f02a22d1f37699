/**
 * The arbiter's weights: a conditional logit over each decision's options, fitted by
 * Newton's method with a ridge penalty.
 *
 * A case is one decision: a feature row per option and the option the agent took. The
 * weights minimise
 *
 *     L(w) = Σ_cases [ log Σ_o exp(w·x_o) − w·x_label ] + (ridge / 2)·‖w‖²
 *
 * whose gradient is `Σ (E_p[x] − x_label) + ridge·w` and Hessian
 * `Σ (E_p[x xᵀ] − E_p[x] E_p[x]ᵀ) + ridge·I`, p being the softmax over the case's options.
 * The Hessian is positive definite (ridge > 0), so L has one minimum and Newton's step
 * always points downhill; a step that would not lower L is halved until it does.
 */

export interface LogitCase {
  /** One feature row per option, all of one length. */
  rows: readonly (readonly number[])[];
  /** The index of the option taken. */
  label: number;
}

export interface LogitFit {
  weights: number[];
  /** L at the weights. */
  loss: number;
  iterations: number;
  converged: boolean;
}

export const RIDGE = 1;
const MAX_ITERATIONS = 100;
/** Converged when the largest gradient component is below this. */
const TOLERANCE = 1e-10;

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
}

function softmax(scores: readonly number[]): number[] {
  const top = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - top));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

/** L(w). */
export function logitLoss(cases: readonly LogitCase[], w: readonly number[], ridge = RIDGE): number {
  let loss = (ridge / 2) * dot(w, w);
  for (const c of cases) {
    const scores = c.rows.map((x) => dot(w, x));
    const top = Math.max(...scores);
    loss += top + Math.log(scores.reduce((s, v) => s + Math.exp(v - top), 0)) - scores[c.label]!;
  }
  return loss;
}

/** The gradient and Hessian of L at w. */
function derivatives(cases: readonly LogitCase[], w: readonly number[], ridge: number): { g: number[]; h: number[][] } {
  const d = w.length;
  const g = w.map((wk) => ridge * wk);
  const h = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? ridge : 0)));
  for (const c of cases) {
    const p = softmax(c.rows.map((x) => dot(w, x)));
    const mean = new Array<number>(d).fill(0);
    c.rows.forEach((x, o) => x.forEach((xk, k) => (mean[k]! += p[o]! * xk)));
    const label = c.rows[c.label]!;
    for (let k = 0; k < d; k++) g[k]! += mean[k]! - label[k]!;
    c.rows.forEach((x, o) => {
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) h[i]![j]! += p[o]! * (x[i]! - mean[i]!) * (x[j]! - mean[j]!);
    });
  }
  return { g, h };
}

/** Solves `a·x = b` for a symmetric positive definite `a` (Cholesky). */
export function solveSpd(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      l[i]![j] = i === j ? Math.sqrt(Math.max(s, Number.MIN_VALUE)) : s / l[j]![j]!;
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i]![k]! * y[k]!;
    y[i] = s / l[i]![i]!;
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k]![i]! * x[k]!;
    x[i] = s / l[i]![i]!;
  }
  return x;
}

/** The weights (`dims` of them) minimising L, from w = 0. With no cases they stay 0. */
export function fitConditionalLogit(cases: readonly LogitCase[], dims: number, ridge = RIDGE): LogitFit {
  let w = new Array<number>(dims).fill(0);
  let loss = logitLoss(cases, w, ridge);
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    const { g, h } = derivatives(cases, w, ridge);
    if (Math.max(0, ...g.map(Math.abs)) < TOLERANCE) return { weights: w, loss, iterations: it, converged: true };
    const step = solveSpd(h, g);
    let t = 1;
    for (;;) {
      const next = w.map((wk, k) => wk - t * step[k]!);
      const l = logitLoss(cases, next, ridge);
      if (l <= loss || t < 1e-12) {
        const moved = Math.max(0, ...step.map((s) => Math.abs(t * s)));
        w = next;
        loss = l;
        if (moved < TOLERANCE) return { weights: w, loss, iterations: it + 1, converged: true };
        break;
      }
      t /= 2;
    }
  }
  return { weights: w, loss, iterations: MAX_ITERATIONS, converged: false };
}
