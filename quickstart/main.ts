#!/usr/bin/env node
/**
 * `make demo`: the whole loop in a few seconds, with no key and no model. A scripted agent
 * serves six customers of the demo shop through `stretto-proxy --record --context`;
 * `stretto learn` turns those sessions into a flow; `stretto flow-show` shows it for
 * review; then two new customers are served without and with `--flow`, and the flow log
 * says what the flow decided.
 *
 * usage: node dist/quickstart/main.js [--dir DIR]   (DIR: where everything is written;
 * a new temporary folder by default, kept afterwards so it can be read)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveCustomer, type Visit } from "./agent.js";
import { RECORDED, SERVED, type Customer } from "./customers.js";
import { describe, firstRunDecisions, flowLogIn } from "./flow-log.js";
import { reviewTables } from "./review.js";
import { stretto } from "./stretto-cli.js";

const THRESHOLD = "0.3";

function folderArg(argv: readonly string[]): string {
  if (argv.length === 0) return mkdtempSync(join(tmpdir(), "stretto-quickstart-"));
  if (argv.length === 2 && argv[0] === "--dir" && argv[1] !== "") return argv[1]!;
  process.stderr.write("usage: node dist/quickstart/main.js [--dir DIR]\n");
  process.exit(2);
}

const say = (text = "") => process.stdout.write(`${text}\n`);
const indent = (text: string) => text.replace(/\n$/, "").replace(/^/gm, "  ");

/**
 * One customer, recorded into `folder`, with a conversation file and a host session named
 * `name` (one per customer, as a host would have).
 */
async function visit(dir: string, c: Customer, folder: string, name: string, flow?: readonly string[]): Promise<Visit> {
  const record = join(dir, folder);
  mkdirSync(record, { recursive: true });
  try {
    return await serveCustomer(c, {
      record,
      conversation: join(dir, "conversations", `${name}.jsonl`),
      hostSession: `quickstart-${name}`,
      ...(flow === undefined ? {} : { flow }),
    });
  } catch (e) {
    throw new Error(`serving ${name}: ${(e as Error).message}`);
  }
}

/** Runs a stretto command, showing it and what it printed; a failure ends the demo. */
async function step(args: string[], shown: string): Promise<string> {
  say(`$ stretto ${shown}`);
  const ran = await stretto(args);
  if (ran.stderr !== "") say(indent(ran.stderr));
  if (ran.code !== 0) throw new Error(`stretto ${args[0]} exited with ${ran.code}`);
  return ran.stdout;
}

async function main(): Promise<void> {
  const dir = folderArg(process.argv.slice(2));
  mkdirSync(join(dir, "conversations"), { recursive: true });
  const sessions = join(dir, "sessions");
  const flowFile = join(dir, "shop.flow.json");

  say(`# 1. Record: a scripted agent serves 6 customers through stretto-proxy --record --context`);
  say(`#    (one call at a time, 0.6 s apart, so each call is its own turn), one proxy per customer:`);
  say(`$ stretto-proxy --record ${sessions} --domain shop --context ${join(dir, "conversations")}/cN.jsonl -- stretto-mcp-demo --world retail`);
  for (const c of RECORDED) {
    const v = await visit(dir, c, "sessions", `c${c.n}`);
    say(`c${c.n} (${c.wish}): ${v.calls.join(", ")}`);
  }

  say();
  say(`# 2. Learn the habit from those sessions`);
  await step(
    ["learn", "--sessions", sessions, "--domain", "shop", "--out", flowFile, "--habit-only"],
    `learn --sessions ${sessions} --domain shop --out ${flowFile} --habit-only`,
  );

  say();
  say(`# 3. Review the flow`);
  const review = join(dir, "shop.flow.md");
  const markdown = await step(["flow-show", flowFile, "--threshold", THRESHOLD], `flow-show ${flowFile} --threshold ${THRESHOLD} > ${review}`);
  writeFileSync(review, markdown);
  say(reviewTables(markdown));

  // Served as learned, as the published run serves it: the proxy's default decider for a
  // learned flow (reach, since it has reach counts and no arbiter) and threshold (0.3).
  const flow = ["--flow", flowFile];
  say();
  say(`# 4. Serve two new customers, without and with the flow`);
  say(`$ stretto-proxy --record … --context … --flow ${flowFile} -- stretto-mcp-demo --world retail`);
  // The two customers side by side, each without then with the flow, every session in a
  // folder of its own: they share nothing, and it saves a few seconds.
  const served = await Promise.all(
    SERVED.map(async (c) => ({
      c,
      without: await visit(dir, c, `served/c${c.n}-without`, `c${c.n}-without`),
      withFlow: await visit(dir, c, `served/c${c.n}-with-flow`, `c${c.n}-with-flow`, flow),
    })),
  );
  const serving = served[0]!.withFlow.stderr.split("\n").find((l) => l.includes("serving the"));
  if (serving !== undefined) say(`  ${serving}`);
  for (const { c, without, withFlow } of served) {
    const saved = without.calls.length - withFlow.calls.length;
    say(`c${c.n} (${c.wish}): ${without.calls.length} calls without the flow, ${withFlow.calls.length} with it (${saved} saved)`);
    say(`  without: ${without.calls.join(", ")}`);
    say(`  with:    ${withFlow.calls.join(", ")}`);
  }

  const first = SERVED[0]!;
  say();
  say(`# 5. What the flow decided after c${first.n}'s first call (its flow log)`);
  const log = flowLogIn(join(dir, `served/c${first.n}-with-flow`));
  for (const d of firstRunDecisions(log)) say(describe(d));

  say();
  say(`Everything is in ${dir}: sessions/ (the recorded logs), shop.flow.json, shop.flow.md (the whole review),`);
  say(`served/ (the served sessions, with their flow logs), conversations/`);
}

main().catch((e: unknown) => {
  process.stderr.write(`quickstart: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
