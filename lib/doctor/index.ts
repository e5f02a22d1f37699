/** `stretto doctor`: is this installation ready, and what does its data folder hold. */
export { doctor, type DoctorInput } from "./doctor.js";
export { findingLines, type Finding, type Level } from "./finding.js";
