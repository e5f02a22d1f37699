/** The helper thread of alpha-grid.ts: takes grid points as the main thread posts grids. */
import { parentPort } from "node:worker_threads";
import { takePoints, type GridJob } from "./alpha-grid.js";

parentPort?.on("message", (job: GridJob) => takePoints(job));
