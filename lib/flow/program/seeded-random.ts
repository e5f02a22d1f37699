/**
 * A seeded source of uniform numbers in [0, 1) for simulation: splitmix64, the top 53
 * bits of each output. The same seed gives the same draws.
 */
const MASK = (1n << 64n) - 1n;

export function seededRandom(seed: number | bigint): () => number {
  let state = BigInt(seed) & MASK;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    z = z ^ (z >> 31n);
    return Number(z >> 11n) / 2 ** 53;
  };
}
