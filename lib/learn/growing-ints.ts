/**
 * A list of 32-bit integers in one typed array that doubles when full: a few large
 * allocations however long the list grows, instead of one per item or per small batch.
 */
export class GrowingInts {
  private data = new Int32Array(1024);
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(v: number): void {
    if (this.size === this.data.length) {
      const grown = new Int32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.size++] = v;
  }

  /** The items so far (a view: valid until the next push). */
  view(): Int32Array {
    return this.data.subarray(0, this.size);
  }
}
