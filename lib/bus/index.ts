export type { Frame, Sender } from "./frame.js";
export { frame } from "./frame.js";
export type { Clock } from "./clock.js";
export { monotonicClock } from "./clock.js";
export { LineSplitter, type Piece } from "./line-splitter.js";
export { lineSource, type LineSourceOptions } from "./line-source.js";
export { Pressure } from "./pressure.js";
export { WriteSink, type WriteSinkOptions } from "./write-sink.js";
export { sessionBus, runPassiveSession, type SessionBus, type SessionIo } from "./session.js";
