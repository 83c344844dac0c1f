// Hashes of pod templates for names and labels (pod-template-hash, controller-revision-hash): FNV-1a over a
// canonical JSON form, written in kube's alphabet without vowels so a hash never spells a word.

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** JSON with object keys sorted, so equal objects hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A short label-safe hash of `value`; `collisionCount` varies it when a name is taken by a different object. */
export function objectHash(value: unknown, collisionCount = 0): string {
  const hash = fnv1a32(canonicalJson(value) + (collisionCount ? `#${collisionCount}` : ''));
  return [...String(hash)].map((d) => SAFE_ALPHABET[Number(d) % SAFE_ALPHABET.length]).join('');
}
