/**
 * The RxJS pieces the proxy uses, each from its own module. `import "rxjs"` loads the
 * whole CommonJS bundle: about 120 ms of every proxy start on the development machine
 * (165 ms against 40 ms for these modules), and hosts start servers often. These are the
 * very module files the bundle re-exports, so a plugin that imports from "rxjs" gets the
 * same classes.
 */
export { Observable } from "rxjs/internal/Observable";
export { Subject } from "rxjs/internal/Subject";
export { BehaviorSubject } from "rxjs/internal/BehaviorSubject";
export { EMPTY } from "rxjs/internal/observable/empty";
export { of } from "rxjs/internal/observable/of";
export { from } from "rxjs/internal/observable/from";
export { concat } from "rxjs/internal/observable/concat";
export { map } from "rxjs/internal/operators/map";
export { filter } from "rxjs/internal/operators/filter";
export { tap } from "rxjs/internal/operators/tap";
export { concatMap } from "rxjs/internal/operators/concatMap";
export { mergeMap } from "rxjs/internal/operators/mergeMap";
export { distinctUntilChanged } from "rxjs/internal/operators/distinctUntilChanged";
export type { Observer, OperatorFunction, ObservableInput } from "rxjs/internal/types";
export type { Subscription } from "rxjs/internal/Subscription";
