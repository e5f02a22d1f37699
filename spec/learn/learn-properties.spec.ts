/**
 * Properties of learning over generated shop sessions, read from real log files:
 *
 * - the flow does not depend on the files' names or the order they were written in;
 * - its counts equal a plain re-count of the sessions' steps, written here without the
 *   learner's code: the habit's level 0, the group layer's totals, reach's level 0, the
 *   sites, and the arguments of each read.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { planFolder } from "../../lib/trace/index.js";
import { learnFromSessions, readFolderSessions } from "../../lib/learn/index.js";
import { flowText, type Flow } from "../../lib/flow/ir/index.js";
import { SHOP_TOOLS, writeSessions, type ShopStep, type ShopTool } from "./shop-logs.js";

const READS = new Set<string>(SHOP_TOOLS.filter((t) => t.readOnly).map((t) => t.name));
const WRITES = new Set<string>(SHOP_TOOLS.filter((t) => !t.readOnly).map((t) => t.name));

const customer = fc.integer({ min: 1, max: 4 });
const step: fc.Arbitrary<ShopStep> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ tool: fc.constantFrom(...SHOP_TOOLS.map((t) => t.name)), n: customer, fails: fc.boolean() }).map(({ tool, n, fails }): ShopStep => callOf(tool, n, fails)) },
  { weight: 1, arbitrary: customer.map((n): ShopStep => ({ kind: "user", text: `I am c${n}@example.com` })) },
  { weight: 1, arbitrary: fc.constant<ShopStep>({ kind: "reply", text: "Anything else?" }) },
);

function callOf(tool: ShopTool, n: number, fails: boolean): ShopStep {
  const args: Record<ShopTool, Record<string, string>> = {
    find_account: { email: `c${n}@example.com` },
    get_account: { account_id: `acct_${n}` },
    get_order: { order_id: `ord_${n}a` },
    close_order: { order_id: `ord_${n}b`, reason: "done" },
  };
  return { kind: "call", tool, args: args[tool], ...(fails ? { fails } : {}) };
}

// Each session starts with the customer speaking, so it has at least one event.
const session = fc.array(step, { minLength: 1, maxLength: 8 }).map((s): ShopStep[] => [{ kind: "user", text: "Hello" }, ...s]);
const sessions = fc.array(session, { minLength: 1, maxLength: 6 });

async function learnDir(dir: string): Promise<Flow> {
  const read = await readFolderSessions(await planFolder(dir));
  return learnFromSessions(read, { domain: "shop", agentOnly: false, constants: true, version: "test", nowMs: 0 });
}

function withDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "stretto-learn-prop-"));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The steps as the learner should see them: calls by tool and outcome, replies as respond. */
function plainSteps(steps: readonly ShopStep[]): { action: string; failed: boolean }[] {
  return steps.flatMap((s): { action: string; failed: boolean }[] => (s.kind === "call" ? [{ action: s.tool, failed: s.fails === true }] : s.kind === "reply" ? [{ action: "respond", failed: false }] : []));
}

const add = (m: Map<string, number>, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);
const sortedEntries = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe("learning, properties", function () {
  this.timeout(120_000);

  it("does not depend on the names or the order of the files in the folder", async () => {
    await fc.assert(
      fc.asyncProperty(sessions, fc.array(fc.stringMatching(/^[a-z0-9]{1,12}$/), { minLength: 6, maxLength: 6 }), fc.integer(), async (ss, names, seed) => {
        const plain = ss.map((steps, i) => ({ file: `session-${i}`, session: `s${i}`, steps }));
        // Other names (made distinct), and written in another order.
        const renamed = plain.map((s, i) => ({ ...s, file: `${names[i]}-${i}` }));
        const shuffled = renamed.map((s, i) => ({ s, k: (i * 7919 + seed) % 101 })).sort((a, b) => a.k - b.k).map((x) => x.s);
        const a = await withDir(async (dir) => (writeSessions(dir, plain), flowText(await learnDir(dir))));
        const b = await withDir(async (dir) => (writeSessions(dir, shuffled), flowText(await learnDir(dir))));
        assert.equal(a, b);
      }),
      { numRuns: 25 },
    );
  });

  it("counts what a plain re-count of the sessions counts", async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async (ss) => {
        const flow = await withDir(async (dir) => {
          writeSessions(dir, ss.map((steps, i) => ({ file: `f${i}`, session: `s${i}`, steps })));
          return learnDir(dir);
        });
        const name = (id: number) => (id === 0 ? "respond" : (flow.vocab[id] as { tool: string }).tool);

        const actions = new Map<string, number>();
        const reached = new Map<string, number>();
        const next = new Map<string, number>();
        const args = new Map<string, number>();
        let steps = 0;
        for (const s of ss) {
          const p = plainSteps(s);
          steps += p.length;
          p.forEach((x, t) => {
            add(actions, x.action);
            // Reach: the distinct actions from here up to (not including) the next write.
            const seen = new Set<string>();
            for (let u = t; u < p.length && !WRITES.has(p[u]!.action); u++) seen.add(p[u]!.action);
            for (const a of seen) add(reached, a);
            const before = p[t - 1];
            if (before !== undefined && before.action !== "respond" && READS.has(x.action)) add(next, `${before.action}/${before.failed}/${x.action}`);
          });
          for (const c of s) if (c.kind === "call" && READS.has(c.tool)) for (const k of ["", ...Object.keys(c.args)]) add(args, `${c.tool}.${k}`);
        }

        // A level holds only contexts something followed: with no steps, none.
        const none = { total: 0, byAction: new Map<number, number>() };
        const level0 = flow.habit.base.levels[0]!.get([]) ?? none;
        assert.equal(level0.total, steps);
        assert.deepEqual(sortedEntries(new Map([...level0.byAction].map(([id, n]) => [name(id), n]))), sortedEntries(actions));
        const topTotal = [...flow.habit.top.values()].reduce((sum, c) => sum + c.total, 0);
        assert.equal(topTotal, steps);
        const reach0 = flow.reach!.levels[0]!.get([]) ?? none;
        assert.equal(reach0.total, steps);
        assert.deepEqual(sortedEntries(new Map([...reach0.byAction].map(([id, n]) => [name(id), n]))), sortedEntries(reached));
        const learnedNext = new Map<string, number>();
        for (const [[tool, failed], m] of flow.sites.next) for (const [b, n] of m) learnedNext.set(`${tool}/${failed}/${b}`, n);
        assert.deepEqual(sortedEntries(learnedNext), sortedEntries(next));
        const learnedArgs = new Map<string, number>();
        for (const [tool, c] of flow.bindings.args) {
          learnedArgs.set(`${tool}.`, c.calls);
          for (const [k, n] of c.passed) learnedArgs.set(`${tool}.${k}`, n);
        }
        assert.deepEqual(sortedEntries(learnedArgs), sortedEntries(args));
        assert.equal(flow.provenance.habitEpisodes, ss.length);
      }),
      { numRuns: 100 },
    );
  });
});

describe("the context before a step", () => {
  it("is the serving code's context of the history up to it", async () => {
    const { contextBefore } = await import("../../lib/learn/context-before.js");
    const { context } = await import("../../lib/flow/decide/index.js");
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), fc.nat(12), fc.nat(4), (symbols, t0, j) => {
        const t = Math.min(t0, symbols.length);
        assert.deepEqual(contextBefore(symbols, t, j), context(symbols.slice(0, t), j));
      }),
    );
  });
});
