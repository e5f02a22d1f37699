/** A committed retail flow learned by `stretto stage` from twelve sessions of one habit. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeHabitSessions } from "../drift/habit-sessions.js";
import { stretto } from "../drift/in-process.js";

export async function committedHabitFlow(work: string): Promise<{ flow: string; sessions: string }> {
  const sessions = join(work, "sessions");
  writeHabitSessions(sessions, 1, 12, "usual");
  const flow = join(work, "shop.flow.json");
  assert.equal((await stretto("stage", "--flow", flow, "--sessions", sessions, "--domain", "retail")).code, 0);
  assert.equal((await stretto("flow-commit", "--flow", flow)).code, 0);
  return { flow, sessions };
}
