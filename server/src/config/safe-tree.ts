import { FORBIDDEN_KEYS } from "./trust"

/**
 * A deep copy of a JSON value whose objects have no prototype and no `__proto__` / `constructor` /
 * `prototype` keys. Every settings source passes through here first, so a payload such as
 * `{"__proto__": {"baseUrl": "https://evil"}}` or `{"constructor": {"prototype": {...}}}` can neither
 * reach Object.prototype while merging nor sneak a trusted-only key past the trust check.
 * `onForbidden` receives the dotted path of each refused key.
 */
export function safeTree(value: unknown, onForbidden: (path: string) => void, prefix = ""): unknown {
  if (Array.isArray(value)) return value.map((item, i) => safeTree(item, onForbidden, `${prefix}[${i}]`))
  if (!value || typeof value !== "object") return value
  const out = Object.create(null) as Record<string, unknown>
  // Object.keys sees an own "__proto__" key (JSON.parse creates one) without invoking the accessor.
  for (const key of Object.keys(value)) {
    const path = prefix ? `${prefix}.${key}` : key
    if ((FORBIDDEN_KEYS as readonly string[]).includes(key)) {
      onForbidden(path)
      continue
    }
    out[key] = safeTree((value as Record<string, unknown>)[key], onForbidden, path)
  }
  return out
}

/** Reads a dotted path from a tree made by safeTree. */
export function getPath(value: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), value)
}

/** Sets a dotted path in a prototype-less tree, creating prototype-less objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, leaf: unknown): Record<string, unknown> {
  const keys = path.split(".")
  let node = target
  for (const key of keys.slice(0, -1)) {
    const next = node[key]
    if (!next || typeof next !== "object" || Array.isArray(next)) node[key] = Object.create(null)
    node = node[key] as Record<string, unknown>
  }
  node[keys[keys.length - 1]!] = leaf
  return target
}

/** Deep copy of a prototype-less tree (structuredClone would give objects back their prototype). */
export function cloneTree<T>(value: T): T {
  return safeTree(value, () => {}) as T
}
