/** FNV-1a, 64 bits, over a string's UTF-8 bytes (facts-flows §2.5 step 6.7, §2.10). */
const OFFSET = 1469598103934665603n;
const PRIME = 1099511628211n;
const MASK = (1n << 64n) - 1n;

export function fnv1a64(text: string): bigint {
  let h = OFFSET;
  for (const byte of Buffer.from(text, "utf8")) h = ((h ^ BigInt(byte)) * PRIME) & MASK;
  return h;
}

/** The arbiter fold of a task: `FNV-1a-64(task_id) % 5`. */
export function foldOf(taskId: string, folds = 5): number {
  return Number(fnv1a64(taskId) % BigInt(folds));
}
