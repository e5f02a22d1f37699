/**
 * `stretto doctor`: checks the installation and the data folder, one finding a line, in a
 * fixed order: the companion binaries, the data folder, the key (by presence only), the
 * flows and sessions in the folder, and with `network` one question to Jev.
 */
import { join } from "node:path";
import { checkCompanions } from "./companions.js";
import { checkDataDir } from "./data-dir.js";
import type { Finding } from "./finding.js";
import { checkKey } from "./key.js";
import { askJev } from "./network.js";
import { filesFindings } from "./scan.js";

export interface DoctorInput {
  version: string;
  /** This stretto's path, when known: companions beside it are looked for there. */
  exe: string | undefined;
  env: NodeJS.ProcessEnv;
  /** `--data`, else `~/.stretto`. */
  data: string | undefined;
  network: boolean;
}

/** The findings, handed to `report` as each check finishes. */
export async function doctor(input: DoctorInput, report: (f: Finding) => void): Promise<void> {
  for (const f of await checkCompanions(input.version, input.env["PATH"], input.exe)) report(f);
  const home = input.env["HOME"] || input.env["USERPROFILE"] || undefined;
  const dir = input.data ?? (home === undefined ? undefined : join(home, ".stretto"));
  if (dir === undefined) {
    report({ level: "problem", text: "neither HOME nor USERPROFILE is set, so there is no ~/.stretto: pass --data" });
  } else {
    report(checkDataDir(dir));
  }
  report(checkKey(input.env));
  if (dir !== undefined) for (const f of await filesFindings(dir, home)) report(f);
  if (input.network) report(await askJev(input.env));
}
