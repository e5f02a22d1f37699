/**
 * The RxJS operators and sources plugins use, from the same module files the proxy uses
 * (`import "rxjs"` works too; this entry loads faster).
 */
export * from "../bus/rx.js";
