// The date rules of Gardener's `project-stale` controller as pure functions: when a Project is too young or too
// recently active to be checked, the stale and auto-delete timestamps it gets when unused (the grace period before an
// auto-delete date exists, and that date is never moved earlier), and when the auto-delete date is reached.
/** One day in milliseconds: Gardener counts the `*Days` settings as 24-hour days. */
export const DayMs = 24 * 60 * 60 * 1000;

/** The `controllers.project` settings the stale rules read. */
export interface StaleSettings {
  minimumLifetimeDays: number;
  staleGracePeriodDays: number;
  staleExpirationTimeDays: number;
}

/** The stale part of a Project's status (RFC 3339 timestamps, as the API serves them). */
export interface StaleStatus {
  staleSinceTimestamp?: string;
  staleAutoDeleteTimestamp?: string;
}

/** A time as a `metav1.Time` is written: UTC, whole seconds. */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const parse = (t: string | undefined): number | undefined => {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * Why the project is not checked for usage at all, or undefined when it is: it was created less than
 * `minimumLifetimeDays` ago, or its `status.lastActivityTimestamp` is younger than that.
 */
export function notStaleReason(
  project: { metadata?: { creationTimestamp?: string }; status?: { lastActivityTimestamp?: string } },
  nowMs: number,
  minimumLifetimeDays: number,
): 'minimum-lifetime' | 'recent-activity' | undefined {
  const lifetime = minimumLifetimeDays * DayMs;
  const created = parse(project.metadata?.creationTimestamp) ?? 0;
  if (created + lifetime > nowMs) return 'minimum-lifetime';
  const activity = parse(project.status?.lastActivityTimestamp);
  if (activity !== undefined && activity + lifetime > nowMs) return 'recent-activity';
  return undefined;
}

/**
 * The status of a project found unused at `nowMs`: stale since its existing `staleSinceTimestamp` (or now). Within the
 * grace period it has no auto-delete date (a changed expiration setting is picked up again later); after it, the
 * date is `staleSince + staleExpirationTimeDays`, unless an existing date is later (dates are only ever extended).
 */
export function staleStatus(current: StaleStatus | undefined, nowMs: number, settings: StaleSettings): StaleStatus {
  const sinceMs = parse(current?.staleSinceTimestamp) ?? Math.floor(nowMs / 1000) * 1000;
  const staleSinceTimestamp = current?.staleSinceTimestamp ?? formatTime(sinceMs);
  if (sinceMs + settings.staleGracePeriodDays * DayMs > nowMs) return { staleSinceTimestamp };
  const autoDeleteMs = sinceMs + settings.staleExpirationTimeDays * DayMs;
  const existing = parse(current?.staleAutoDeleteTimestamp);
  if (existing !== undefined && existing >= autoDeleteMs) {
    return { staleSinceTimestamp, staleAutoDeleteTimestamp: current!.staleAutoDeleteTimestamp };
  }
  return { staleSinceTimestamp, staleAutoDeleteTimestamp: formatTime(autoDeleteMs) };
}

/** Whether a stale project's auto-delete date has been reached. */
export function autoDeleteDue(status: StaleStatus, nowMs: number): boolean {
  const at = parse(status.staleAutoDeleteTimestamp);
  return at !== undefined && nowMs >= at;
}

/**
 * The merge patch of `status` that turns `current` into `desired` (absent fields become null), or undefined when
 * nothing changes.
 */
export function staleStatusPatch(
  current: StaleStatus | undefined,
  desired: StaleStatus,
): { staleSinceTimestamp: string | null; staleAutoDeleteTimestamp: string | null } | undefined {
  const since = desired.staleSinceTimestamp ?? null;
  const autoDelete = desired.staleAutoDeleteTimestamp ?? null;
  if ((current?.staleSinceTimestamp ?? null) === since && (current?.staleAutoDeleteTimestamp ?? null) === autoDelete)
    return undefined;
  return { staleSinceTimestamp: since, staleAutoDeleteTimestamp: autoDelete };
}
