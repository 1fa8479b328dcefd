/**
 * import() of an installed package. The CLI bundle's chunks are compiled through node:vm for
 * their code cache (compile-cache.ts), and on Node 20 code compiled that way cannot call
 * import(). This module is its own entry of the bundle, loaded by Node itself, so its import()
 * works; packages loaded on demand (ESM-only ones among them) are imported through it.
 */
export function importPackage<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}
