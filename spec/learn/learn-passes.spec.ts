/**
 * The habit-only learner reads a folder's sessions in passes over a compressed store
 * (`learnFromSessions`) rather than from every episode held in memory (`learnFlow` of
 * `learnInput`). Both must give the same flow: checked over a few hundred generated shop
 * sessions (more than one block of the store, with code features chosen, sessions that
 * failed by their rewards, a half-life, constants and --agent-only), also with the
 * bindings learned on a second thread, and the store must give back exactly the episodes
 * that went in. Reading half of the sessions on a second thread reads the same: episodes,
 * tools, contracts in their order, and a log's error. The field table recorded in the
 * count pass is the one of three passes.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planFolder, type Episode } from "../../lib/trace/index.js";
import { EpisodeStore, FieldTableBuilder, fieldTable, learnFlow, learnFromSessions, learnFromSessionsThreaded, learnInput, readFolderSessions, type SessionsOptions } from "../../lib/learn/index.js";
import { flowText } from "../../lib/flow/ir/index.js";
import { steps } from "../../lib/flow/decide/index.js";
import { shopSessionLog } from "../../bench/learn/shop-sessions.js";
import { countedBindings, learnBindings } from "../../lib/learn/bindings/learn-bindings.js";
import { addTallies, blockCounter, scoreTakenBlocks, talliesOf, withEmptyTallies } from "../../lib/learn/bindings/shared-scoring.js";
import { successfulSessions } from "../../lib/learn/bindings/stored-bindings.js";
import type { EpisodeBlocks } from "../../lib/learn/episode-store.js";
import type { ToolKind } from "../../lib/flow/ir/index.js";
import { FirstPass, type FirstPassDigest } from "../../lib/learn/first-pass.js";

const SESSIONS = 300;

describe("learning in passes over the stored sessions", function () {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "stretto-learn-passes-"));
    for (let k = 0; k < SESSIONS; k++) {
      const { file, text } = shopSessionLog(k, 3);
      writeFileSync(join(dir, file), text);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("gives back every episode exactly, across blocks", async () => {
    const read = await readFolderSessions(await planFolder(dir));
    assert.equal(read.episodes.length, SESSIONS);
    const odd: Episode = {
      id: "odd",
      task_id: "",
      trial: 0,
      domain: "shop",
      agent_model: "m",
      reward: -0,
      events: [{ kind: "assistant", text: null, calls: [{ id: "1", name: "t", arguments: { n: -0, big: 1e300, s: "\ud800", list: [] } }], usage: null }],
    };
    const store = new EpisodeStore();
    const all = [...read.episodes, odd];
    for (const ep of all) store.add(ep);
    // Twice: a pass leaves the store as it was.
    for (let pass = 0; pass < 2; pass++) {
      const back = [...store];
      assert.equal(back.length, all.length);
      back.forEach((ep, i) => assert.deepStrictEqual(ep, all[i]));
      const last = back.at(-1)!.events[0]!;
      assert.ok(last.kind === "assistant" && Object.is((last.calls[0]!.arguments as { n: number }).n, -0));
    }
  });

  it("reads the same sessions with half of them on a second thread", async () => {
    const folder = await planFolder(dir);
    const alone = await readFolderSessions(folder, undefined, { thread: false });
    const told: number[] = [];
    const shared = await readFolderSessions(folder, (done) => told.push(done), { thread: true });
    assert.deepStrictEqual([...shared.episodes], [...alone.episodes]);
    assert.deepStrictEqual(shared.listed.finish("shop"), alone.listed.finish("shop"));
    assert.deepStrictEqual([...shared.contracts], [...alone.contracts]);
    assert.equal(told.at(-1), SESSIONS);
    assert.ok(told.every((n, i) => i === 0 || n >= told[i - 1]!), "progress never goes back");
  });

  it("tells a log's error in the second thread's half as reading alone tells it", async () => {
    const folder = await planFolder(dir);
    const last = folder.paths.at(-1)!;
    const text = readFileSync(last, "utf8");
    try {
      // Changed since planning: the log now ends in a line that is no JSON.
      writeFileSync(last, text + "{not json\n");
      const alone = await readFolderSessions(folder, undefined, { thread: false }).then(() => undefined, (e: unknown) => e);
      const shared = await readFolderSessions(folder, undefined, { thread: true }).then(() => undefined, (e: unknown) => e);
      assert.ok(alone instanceof Error, "the changed log fails reading");
      assert.ok(shared instanceof Error && shared.constructor === alone.constructor);
      assert.equal(shared.message, alone.message);
    } finally {
      writeFileSync(last, text);
    }
  });

  it("records the candidates' values in the count pass as the values pass reads them", async () => {
    const read = await readFolderSessions(await planFolder(dir));
    // Failed calls too: every fifth result an error, so some steps have no output.
    const eps = [...read.episodes].map((ep, i) => ({
      ...ep,
      events: ep.events.map((e, k) => (e.kind === "tool_result" && (i + k) % 5 === 0 ? { ...e, error: true } : e)),
    }));
    const recorded = new FieldTableBuilder(true);
    for (const ep of eps) recorded.offer(steps(ep));
    for (const ep of eps) recorded.count(steps(ep));
    assert.equal(recorded.needsValues, false);
    const three = fieldTable(eps);
    assert.ok(three.candidates.length > 0, "some field is a candidate");
    assert.deepStrictEqual(recorded.table(), three);
  });

  it("scores the binder's picks in shares of blocks that add up to one thread's scoring", async () => {
    const read = await readFolderSessions(await planFolder(dir));
    const rewards = new Map([...read.episodes].flatMap((ep, i) => (i % 5 === 1 ? [[ep.id, 0] as const] : [])));
    const reading = { domain: "shop", rewards, agentOnly: false };
    const kinds = new Map(Object.entries(read.listed.finish("shop").tools)) as Map<string, ToolKind>;
    const whole = learnBindings(successfulSessions(read.episodes, reading), kinds, false);
    const counted = countedBindings(successfulSessions(read.episodes, reading), kinds, false);
    const blocks = read.episodes.blockCount;
    assert.ok(blocks > 2, "the folder fills several blocks");
    // Two shares, each scoring only the blocks given to it (the other blocks read as empty).
    const only = (mine: (i: number) => boolean): EpisodeBlocks => ({ blockCount: blocks, block: (i) => (mine(i) ? read.episodes.block(i) : []) });
    const shares: [string, (i: number) => boolean][] = [
      ["alternate blocks", (i) => i % 2 === 0],
      ["the first block", (i) => i === 0],
      ["all but the last block", (i) => i < blocks - 1],
      ["every block", () => true],
    ];
    for (const [name, mine] of shares) {
      const first = withEmptyTallies(counted);
      scoreTakenBlocks(first, only(mine), reading, kinds, blockCounter());
      const second = withEmptyTallies(counted);
      scoreTakenBlocks(second, only((i) => !mine(i)), reading, kinds, blockCounter());
      const summed = addTallies(addTallies(counted, talliesOf(first)), talliesOf(second));
      assert.deepStrictEqual(talliesOf(summed), talliesOf(whole), name);
    }
    // A counter hands each block out once, however the two shares interleave.
    const counter = blockCounter();
    const taken: number[] = [];
    const counting: EpisodeBlocks = { blockCount: blocks, block: (i) => (taken.push(i), []) };
    scoreTakenBlocks(withEmptyTallies(counted), counting, reading, kinds, counter);
    scoreTakenBlocks(withEmptyTallies(counted), counting, reading, kinds, counter);
    assert.deepStrictEqual(taken, Array.from({ length: blocks }, (_, i) => i));
    assert.ok(whole.agreed.size > 0, "picks were scored");
    // These sessions name no other value and describe no record: those tallies add as the agreements do.
    const named = addTallies({ ...counted, namedOther: new Map([["a", [1, 2]]]), describedRead: new Map([["b", [0, 3]]]) }, {
      agreed: new Map(),
      namedOther: new Map([
        ["a", [3, 4]],
        ["c", [0, 1]],
      ]),
      describedRead: new Map([["b", [2, 2]]]),
    });
    assert.deepStrictEqual([...named.namedOther], [
      ["a", [4, 6]],
      ["c", [0, 1]],
    ]);
    assert.deepStrictEqual([...named.describedRead], [["b", [2, 5]]]);
  });

  const variants: [string, Partial<SessionsOptions>][] = [
    ["every session a success", {}],
    ["rewards failing some sessions, a half-life, constants", { rewards: new Map(), halfLife: 40, constants: true }],
    ["the agent's calls only", { agentOnly: true }],
  ];
  for (const [name, extra] of variants) {
    it(`learns the same flow as from every episode in memory: ${name}`, async () => {
      const read = await readFolderSessions(await planFolder(dir));
      const rewards = new Map<string, number>();
      if (extra.rewards !== undefined) [...read.episodes].forEach((ep, i) => i % 7 === 3 && rewards.set(ep.id, 0));
      const o: SessionsOptions = { domain: "shop", agentOnly: false, constants: false, version: "test", nowMs: 0, ...extra, ...(extra.rewards ? { rewards } : {}) };
      const streamed = learnFromSessions(read, o);
      const held = learnFlow(learnInput(read, o));
      assert.equal(flowText(streamed), flowText(held));
      if (name.startsWith("rewards")) {
        // The bindings learned on a second thread from the store's bytes (the richest variant only: a thread per test costs).
        const threaded = await learnFromSessionsThreaded(read, { ...o, bindingsThread: true });
        assert.equal(flowText(threaded), flowText(held));
      }
      if (!name.startsWith("every")) {
        // The first pass made while reading, on both reading threads, as `stretto learn --habit-only` reads.
        const reading = { domain: o.domain, rewards: o.rewards, agentOnly: o.agentOnly };
        const readFirst = await readFolderSessions(await planFolder(dir), undefined, { thread: true, firstPass: reading });
        const whole = new FirstPass(reading);
        for (const ep of readFirst.episodes) whole.add(ep);
        const made = readFirst.firstPass!.digest;
        const sorted = (d: FirstPassDigest) => ({ ...d, called: [...d.called].sort(), models: [...d.models].sort(), offered: d.offered.map(([t, f]) => [t, [...f].sort()]).sort() });
        assert.deepStrictEqual(sorted(made), sorted(whole.digest()));
        assert.ok(made.offered.length > 0 && made.successes === SESSIONS - rewards.size);
        const fromReading = await learnFromSessionsThreaded(readFirst, { ...o, bindingsThread: true });
        assert.equal(flowText(fromReading), flowText(held));
      }
      assert.ok(streamed.map.fields.size > 0, "code features are chosen");
      assert.equal(streamed.provenance.habitEpisodes, SESSIONS - rewards.size);
    });
  }
});
