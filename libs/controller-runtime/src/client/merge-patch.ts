// RFC 7386 JSON merge patch applied on the client side: what the API server does with a `merge` patch, for code and
// test fakes that must compute the result themselves (the local API server has its own copy with kube's extra rules).

/** `patch` merged into `target` as RFC 7386 says (a new value; neither argument is changed): null deletes, arrays replace. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}
