// Named health and readiness checks, as served under /healthz and /readyz.
export type Check = () => boolean | Promise<boolean>;

export class Checks {
  private readonly checks = new Map<string, Check>();

  add(name: string, check: Check): void {
    this.checks.set(name, check);
  }

  /** Runs every check; a check that throws counts as failed. */
  async run(): Promise<{ ok: boolean; results: Record<string, boolean> }> {
    const results: Record<string, boolean> = {};
    for (const [name, check] of this.checks) {
      try {
        results[name] = await check();
      } catch {
        results[name] = false;
      }
    }
    return { ok: Object.values(results).every(Boolean), results };
  }
}
