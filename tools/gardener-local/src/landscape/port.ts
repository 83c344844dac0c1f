// The API server port of `gardener-local up`. A landscape's components keep the API server's URL in what they were
// given at the first start (kubeconfig Secrets, the gardenlet's bootstrapped kubeconfig, ControllerInstallations), so
// a landscape resumed on another port would leave them talking to a port nobody serves. The port is therefore chosen
// once: `--port`, else 6443, at the first start; later starts keep it and refuse another.

/** The port a landscape starts with, or the message refusing the request. */
export type LandscapePort = { port: number } | { error: string };

/** Kube's default secure port, the landscape's when `--port` is not given at the first start. */
export const DefaultLandscapePort = 6443;

/**
 * The port for `gardener-local up`: `requested` is the `--port` value as typed (undefined when not given),
 * `previous` the port of the landscape's earlier runs (undefined for a new landscape), `root` its data dir.
 */
export function landscapePort(
  requested: string | undefined,
  previous: number | undefined,
  root: string,
): LandscapePort {
  if (requested === undefined) return { port: previous ?? DefaultLandscapePort };
  const port = /^\d+$/.test(requested) ? Number(requested) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { error: `--port must be a port number; got ${JSON.stringify(requested)}` };
  if (previous !== undefined && port !== previous)
    return {
      error:
        `--port ${port}: the landscape in ${root} serves on port ${previous}, and its components were configured with ` +
        `that port; start it with --port ${previous} (or without --port), or use another --data-dir for a new landscape`,
    };
  return { port };
}
