/**
 * Mocha's root hooks (`.mocharc.json` requires this file). In parallel mode every spec file
 * is its own run, so `afterAll` here runs once a file is done: the temporary folders it made
 * with `tempDir` are removed even where the file itself has no `after(cleanTemp)`.
 * `make test` checks that the specs leave nothing in their temporary folder.
 */
import { cleanTemp } from "./processes.js";

export const mochaHooks = {
  afterAll(): void {
    cleanTemp();
  },
};
