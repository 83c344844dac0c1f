// Options of the local kubelet, with the defaults the Kubernetes kubelet uses where it has one.
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import type { ImageMap } from '../images/image-map.js';
import type { BackOffSettings } from './runtime/backoff.js';
import type { ServingCert } from './server/serving-cert.js';

/** A Node taint, as the Node's `spec.taints` holds it. */
export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface KubeletOptions {
  /** A kubeconfig file, or a loaded KubeConfig. */
  kubeconfig: string | k8s.KubeConfig;
  nodeName: string;
  /** Pod directories (`<dataDir>/pods/<uid>`) and the serving certificate (`<dataDir>/pki`) live here. */
  dataDir: string;
  /** An image map file (or a map) whose entries win over the built-in map. */
  imageMap?: string | ImageMap;
  /** The gardener-ts workspace the built-in map runs apps from (`<workspace>/dist/apps/<app>/main.js`); default cwd. */
  workspace?: string;
  /** The HTTPS port for logs and exec (0: any free port); default 10250. */
  port?: number;
  /**
   * kube's healthzPort (`--healthz-port`): a plain HTTP `/healthz` on `healthzBindAddress` for health checks such as
   * gardener-node-agent's (kube's default is 10248; here none unless set, as kubelets of one host share its ports;
   * 0: any free port).
   */
  healthzPort?: number;
  /** kube's healthzBindAddress (`--healthz-bind-address`); default 127.0.0.1. */
  healthzBindAddress?: string;
  /** The serving certificate; a self-signed one in `<dataDir>/pki` when absent (and no serverTLSBootstrap). */
  servingCert?: ServingCert;
  /**
   * kube's serverTLSBootstrap (flag --rotate-server-certificates): the serving certificate comes from a
   * kubernetes.io/kubelet-serving CertificateSigningRequest made with the kubelet's own credentials, kept in
   * `<dataDir>/pki/kubelet-server-current.pem` and rotated before it expires. Until one is issued, TLS handshakes fail.
   * Not together with `servingCert`.
   */
  serverTLSBootstrap?: boolean;
  /** serverTLSBootstrap: how often a pending CSR is read; default 1 s. */
  csrPollMs?: number;
  /** A CA file: when set, only clients with a certificate it signed may call the kubelet's HTTPS endpoint. */
  clientCaFile?: string;
  /** Pod addresses come from this 127.X.0.0/16 range (one per Pod); without it every Pod shares 127.0.0.1. */
  podCIDR?: string;
  /** Addresses of the pod CIDR no Pod gets (the kubelet's own, when it runs inside a Pod with an address of it). */
  reservedPodIPs?: string[];
  /**
   * The service proxy's services.json: Node.js programs in Pods read it to reach Services by name and ClusterIP
   * (GARDENER_LOCAL_SERVICES_FILE; see network/pod-network.mjs). Without it only `kubernetes.default` resolves.
   */
  servicesFile?: string;
  /**
   * The machine's root directory when this kubelet is a local machine's (`--rootfs`): hostPath volumes are paths of
   * the machine, below it, as on a real node they are paths of its own filesystem.
   */
  hostPathRoot?: string;
  /** Extra Node labels. */
  nodeLabels?: Record<string, string>;
  /** kube's registerWithTaints (`--register-with-taints`): taints the Node gets when this kubelet registers it. */
  registerWithTaints?: Taint[];
  /** Lease renewal interval; default 10 s. */
  leaseRenewMs?: number;
  /** How often the Node status is checked (default 10 s) and written even when unchanged (default 5 min). */
  nodeStatusUpdateMs?: number;
  nodeStatusReportMs?: number;
  /** Container restart back-off; default 10 s doubling to 5 min, reset after 10 min running. */
  backoff?: Partial<BackOffSettings>;
  /** How often ConfigMap/Secret/projected volumes are rewritten and tokens refreshed; default 60 s. */
  volumeResyncMs?: number;
  /**
   * Retry interval while a Pod's configuration cannot be prepared, and the longest wait between attempts to set up
   * its volumes (from 500 ms, doubling, as kube's volume operations back off); default 2 s.
   */
  retryMs?: number;
  /**
   * kube's containerLogMaxSize (`--container-log-max-size`): a container log file is rotated once it would grow past
   * this size, a quantity (`10Mi`) or a number of bytes; default 10Mi.
   */
  containerLogMaxSize?: string | number;
  /** kube's containerLogMaxFiles (`--container-log-max-files`): log files kept per container, at least 2; default 5. */
  containerLogMaxFiles?: number;
  /** On `stop()`, how long Pods get between SIGTERM and SIGKILL at most; default 10 s. */
  shutdownGraceMs?: number;
  logger?: Logger;
}

export const KUBELET_DEFAULTS = {
  port: 10250,
  leaseRenewMs: 10_000,
  nodeStatusUpdateMs: 10_000,
  nodeStatusReportMs: 300_000,
  volumeResyncMs: 60_000,
  retryMs: 2_000,
  shutdownGraceMs: 10_000,
};
