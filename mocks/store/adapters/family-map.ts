/**
 * The family of a key: the key up to its second colon (`idem:<workspace>:`, `ws:<workspace>:`,
 * `rl:workspace:`), or up to its only colon (`download:`), or '' for a key without one. A family is a prefix of
 * each of its keys.
 */
export function familyOf(key: string): string {
  const first = key.indexOf(':');
  if (first < 0) return '';
  const second = key.indexOf(':', first + 1);
  return key.slice(0, (second < 0 ? first : second) + 1);
}

/**
 * A Map of keys that also knows its keys by family, so the keys under a prefix are found among that prefix's
 * families, not among every key: a workspace's reset (its `ws:<uuid>:` keys, its idempotency answers, its rate
 * limit's counters) then costs what that workspace holds, whatever the other tenants hold. Every way a key comes
 * in or goes out (set, delete, clear) keeps the families; iteration and lookups are the Map's own.
 */
export class FamilyMap<V> extends Map<string, V> {
  readonly #families = new Map<string, Set<string>>();

  override set(key: string, value: V): this {
    if (!super.has(key)) {
      const name = familyOf(key);
      const family = this.#families.get(name);
      if (family) family.add(key);
      else this.#families.set(name, new Set([key]));
    }
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    if (!super.delete(key)) return false;
    const name = familyOf(key);
    const family = this.#families.get(name);
    family?.delete(key);
    if (family?.size === 0) this.#families.delete(name);
    return true;
  }

  override clear(): void {
    super.clear();
    this.#families.clear();
  }

  /**
   * The keys that begin with `prefix`, in no stated order. A key's family is a prefix of the key, so a key can
   * begin with `prefix` only if its family begins with it (then every key of the family does) or `prefix` begins
   * with its family (then its keys are checked one by one); a prefix with two colons or more has one such family.
   */
  keysWithPrefix(prefix: string): string[] {
    const found: string[] = [];
    const within = (family: Set<string>) => {
      for (const key of family) if (key.startsWith(prefix)) found.push(key);
    };
    const first = prefix.indexOf(':');
    if (first >= 0 && prefix.indexOf(':', first + 1) >= 0) {
      const family = this.#families.get(familyOf(prefix));
      if (family) within(family);
      return found;
    }
    for (const [name, family] of this.#families) {
      if (name.startsWith(prefix)) found.push(...family);
      else if (prefix.startsWith(name)) within(family);
    }
    return found;
  }
}
