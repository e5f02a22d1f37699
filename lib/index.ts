export * from "./bus/index.js";
export { VERSION } from "./version.js";
