/**
 * FNV-1a, 64 bits, over a string's UTF-8 bytes. The offset is one digit short of the
 * published FNV-1a-64 basis (14695981039346656037): it is the value flows are already
 * learned and served with, and it picks each task's fold and exploration draw, so changing
 * it would move every task to another fold. Kept on purpose.
 */
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
