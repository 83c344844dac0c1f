// Per-request facts the object service needs: who asks, dry-run, field manager and field validation mode.
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface RequestContext {
  user: UserInfo;
  dryRun: boolean;
  /** `?fieldManager=`, else derived from the User-Agent as kube does. */
  fieldManager: string;
  fieldValidation: FieldValidation;
  /** Collected `Warning` headers (299 "..."). */
  warnings: string[];
}

export const SYSTEM_USER: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

/** A context for the server's own writes (garbage collector, namespace and CRD controllers). */
export function internalContext(fieldManager: string): RequestContext {
  return { user: SYSTEM_USER, dryRun: false, fieldManager, fieldValidation: 'Ignore', warnings: [] };
}

/** kube: the field manager defaults to the User-Agent's program name (`kubectl`, `kube-controller-manager`). */
export function fieldManagerFromUserAgent(userAgent: string | undefined): string {
  if (!userAgent) return 'unknown';
  const name = userAgent.split('/')[0];
  return name.length > 128 ? name.slice(0, 128) : name || 'unknown';
}
