/**
 * Whether a value comes back exactly from its JSON text: `JSON.parse(JSON.stringify(v))`
 * gives the same value, the same keys in the same order, the same numbers bit for bit.
 * That holds for strings (a lone surrogate is written escaped), booleans, null, finite
 * numbers other than -0, and arrays and plain objects of those; anything else (-0, a
 * property holding undefined, a non-finite number, another kind of object, a hole in an
 * array) is not exact, and is reported so rather than guessed at. What neither JSON nor
 * V8's serializer writes (a symbol key, a non-enumerable property) is not looked at.
 */
export function isJsonExact(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0);
    case "object": {
      if (v === null) return true;
      const proto = Object.getPrototypeOf(v) as unknown;
      if (Array.isArray(v)) {
        if (proto !== Array.prototype) return false;
        for (let i = 0; i < v.length; i++) if (!(i in v) || !isJsonExact(v[i])) return false;
        // Only the indices and length: JSON would not write an array's other properties.
        return Reflect.ownKeys(v).length === v.length + 1;
      }
      if (proto !== Object.prototype) return false;
      // Both JSON and V8's serializer write an object's own enumerable string keys only.
      for (const k in v) if (!isJsonExact((v as Record<string, unknown>)[k])) return false;
      return true;
    }
    default:
      return false;
  }
}
