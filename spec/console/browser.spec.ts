/**
 * The console in a real browser: Debian's headless Chromium (playwright-core, never a
 * downloaded browser) against the real `stretto console` over a copy of the fixture data
 * directory. Each test opens a page, checks what a user sees, takes a screenshot into
 * test-output/console/ and runs axe-core (no serious or critical violations). One browser
 * and one console serve the whole file.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { chromium, type Browser, type Page } from "playwright-core";
import { DEMO, NODE, PROXY, killAll } from "../helpers/processes.js";
import {
  CHROMIUM,
  TOKEN,
  copyFixtureData,
  describeViolations,
  screenshot,
  seriousViolations,
  startConsole,
  type RunningConsole,
} from "./browser-kit.js";

describe("stretto console in a browser", function () {
  this.timeout(60000);
  let con: RunningConsole;
  let browser: Browser;
  let page: Page;
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does it as root`);
    con = await startConsole(copyFixtureData());
    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    // The link with the token becomes a cookie, as with the URL the console prints.
    await page.goto(`${con.url}?token=${TOKEN}`);
    await page.getByRole("heading", { name: "Overview" }).waitFor();
  });

  after(async () => {
    await browser?.close();
    killAll();
  });

  afterEach(function () {
    assert.deepEqual(cspViolations, [], "the UI broke the console's Content-Security-Policy");
    assert.deepEqual(pageErrors, [], "the page threw");
  });

  async function open(hash: string, heading: string | RegExp): Promise<void> {
    await page.goto(`${con.url}#${hash}`);
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  }

  async function checked(name: string): Promise<void> {
    await screenshot(page, name);
    const vs = await seriousViolations(page);
    assert.equal(vs.length, 0, describeViolations(vs));
  }

  async function api<T>(path: string): Promise<T> {
    const res = await fetch(new URL(path, con.url), { headers: { Authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return (await res.json()) as T;
  }

  it("shows the overview of the fixture data", async () => {
    await open("/", "Overview");
    await page.getByText("Sessions this week").waitFor();
    await page.getByRole("heading", { name: "Domains" }).waitFor();
    for (const d of ["orders", "retail", "shop"]) await page.getByRole("heading", { level: 3, name: d, exact: true }).waitFor();
    await checked("overview");
  });

  it("lists sessions and filters them by mode", async () => {
    await open("/sessions", "Sessions");
    await page.getByRole("status").filter({ hasText: /^12 sessions$/ }).waitFor();
    await page.getByRole("button", { name: "Served", exact: true }).click();
    await page.getByRole("status").filter({ hasText: /^2 sessions$/ }).waitFor();
    await checked("sessions");
  });

  it("shows a served session's timeline with the flow's three lookups and their bars", async () => {
    const list = await api<{ items: { key: string }[] }>("/api/sessions?mode=served&limit=1");
    const key = list.items[0]?.key;
    assert.ok(key, "a served session in the fixture");
    await open(`/sessions/${key}`, /^Session /);
    const block = page.getByRole("region", { name: "Read ahead by stretto: 3 lookups" });
    await block.getByRole("heading", { name: "Read ahead by stretto: 3 lookups" }).waitFor();
    const rows = block.locator(".lookup", { hasText: "Looked up" });
    assert.equal(await rows.count(), 3);
    for (let i = 0; i < 3; i++) {
      assert.match((await rows.nth(i).textContent()) ?? "", /Looked up \S+/);
      assert.equal(await rows.nth(i).getByRole("img").count(), 1, "each lookup has its bar");
    }
    await checked("session-timeline");
    await page.getByRole("tab", { name: "Decisions" }).click();
    await page.getByRole("table").waitFor();
    await page.getByRole("tab", { name: "Raw log" }).click();
    await page.getByRole("tab", { name: "Tools" }).click();
    await page.getByRole("tab", { name: "Tools" }).and(page.locator("[aria-selected=true]")).waitFor();
  });

  it("shows a refused write in the timeline with its reason", async () => {
    const retail = await api<{ items: { key: string }[] }>("/api/sessions?domain=retail");
    const key = retail.items[0]?.key;
    assert.ok(key, "the judged retail session in the fixture");
    await open(`/sessions/${key}`, /^Session /);
    const refusal = page.locator(".refusal").first();
    await refusal.waitFor();
    // The fixture's second cancel is refused by the retail policy guard, which says why.
    assert.match((await refusal.textContent()) ?? "", /^Reason: Refused by the policy check, .*\(policy check retail\.\w+\)/);
    await page.locator(".call", { has: refusal }).getByText("Refused by stretto").waitFor();
    await checked("session-refusal");
  });

  it("moves a flow's threshold slider to 0.95 and fewer sites act", async () => {
    await open("/flows", "Flows");
    await checked("flows");
    await open("/flows/shop", "Flow shop");
    const sentence = page.locator(".threshold-sentence");
    const acting = async () => Number(/after (\d+) of its/.exec((await sentence.textContent()) ?? "")?.[1]);
    await sentence.filter({ hasText: "At 0.30" }).waitFor();
    const before = await acting();
    assert.ok(before > 0, "some site acts at 0.30");
    await page.locator("#threshold").fill("0.95");
    await sentence.filter({ hasText: "At 0.95" }).waitFor();
    const after = await acting();
    assert.ok(after < before, `fewer sites act at 0.95 (${after}) than at 0.30 (${before})`);
    // The server's answer at 0.95 (asked 220 ms after the slider stops) agrees with the preview.
    await page.waitForURL(/threshold=0\.95/);
    await checked("flow");
    await page.getByRole("tab", { name: "Review" }).click();
    await page.getByText("# Flow: shop").waitFor();
    await page.getByRole("tab", { name: "Compare" }).click();
    await page.getByLabel("Compare with").selectOption({ index: 1 });
    await page.getByText(/changes, \d+/).waitFor();
    await checked("flow-compare");
  });

  it("runs a learn job to done with its output", async () => {
    await open("/jobs/new?kind=learn&domain=shop", "New job");
    await page.getByLabel("Sessions (a folder in the data directory)").fill("logs/shop");
    await page.getByLabel("Write to (optional)").fill("relearned.flow.json");
    await page.getByText(/^stretto learn --sessions logs\/shop --domain shop --out relearned\.flow\.json --habit-only$/).waitFor();
    await checked("job-new");
    await page.getByRole("button", { name: "Run" }).click();
    await page.getByRole("heading", { level: 1, name: /^Learn shop from/ }).waitFor();
    await page.locator(".job-status", { hasText: /^done$/ }).waitFor({ timeout: 30000 });
    const output = (await page.getByLabel("The job's output").textContent()) ?? "";
    assert.match(output, /^\$ stretto learn --sessions /);
    await checked("job");
    await open("/jobs", "Jobs");
    await checked("jobs");
  });

  it("shows servers, a host's configuration and a connection test", async () => {
    await open("/servers", "Servers");
    await checked("servers");
    await open("/servers/shop", /^shop/);
    await page.getByRole("tab", { name: "Claude Code" }).waitFor();
    await page.getByText(/^claude mcp add shop -- /).waitFor();
    await page.getByRole("tab", { name: "Cursor" }).click();
    await page.getByText(/mcpServers/).first().waitFor();
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByText(/^Connected in .*, 4 tools$/).waitFor({ timeout: 20000 });
    await checked("server");
    await open("/servers/new", "Add a server");
    await page.getByRole("button", { name: "Add the server" }).click();
    await page.getByText("Give the server a name.").waitFor();
    await checked("server-form");
  });

  it("shows settings, the command palette and the dark theme", async () => {
    await open("/settings", "Settings");
    await page.getByRole("cell", { name: "stretto-proxy", exact: true }).waitFor();
    await checked("settings");
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Search or jump to" });
    await palette.waitFor();
    await checked("palette");
    await page.keyboard.type("flows");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Flows" }).waitFor();
    await page.getByLabel("Theme: system").click();
    await page.getByLabel("Theme: light").click();
    assert.equal(await page.evaluate("document.documentElement.dataset.theme"), "dark");
    await checked("flows-dark");
  });

  it("follows a session being recorded: a new call shows within 1 s", async () => {
    const client = new Client({ name: "console-live-spec", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: NODE,
        args: [PROXY, "--record", join(con.data, "logs/shop"), "--domain", "shop", "--", NODE, DEMO, "--world", "retail"],
        stderr: "ignore",
      }),
    );
    try {
      await client.callTool({ name: "find_user_id_by_email", arguments: { email: "noah.kim@example.com" } });
      // The newest session is this one (the fixture's were recorded before); wait until it is listed live.
      let key: string | undefined;
      for (let i = 0; i < 50 && key === undefined; i++) {
        const newest = await api<{ items: { key: string; live: boolean; path: string }[] }>("/api/sessions?limit=1");
        const s = newest.items[0];
        if (s?.live === true && s.path.startsWith("logs/shop/")) key = s.key;
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(key, "the session being recorded is listed as live");
      await open(`/sessions/${key}`, /^Session /);
      await page.getByRole("status").filter({ hasText: "Following live" }).waitFor();
      await client.callTool({ name: "get_user_details", arguments: { user_id: "noah_kim_1234" } });
      // The acceptance criterion of a live page: the new call is on it within 1 s of its write.
      await page.getByText("get_user_details", { exact: false }).first().waitFor({ timeout: 1000 });
      await checked("session-live");
    } finally {
      await client.close();
    }
  });
});
