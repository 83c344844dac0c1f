// The usage texts of gardener-local's commands, apart from the commands themselves: cli.ts prints them without
// loading any command's code (each command is loaded only when it runs; see cli.ts).

export const APISERVER_USAGE = `  gardener-local apiserver --data-dir DIR [--port N] [--storage memory|file|etcd] [--etcd-servers URL[,URL]]
                           [--etcd-cafile FILE] [--etcd-certfile FILE --etcd-keyfile FILE]
                           [--encryption-provider-config FILE]
                           [--bind-address IP] [--advertise-address IP]
                           [--tls-cert-file FILE --tls-private-key-file FILE] [--client-ca-file FILE]
                           [--service-account-signing-key-file FILE] [--service-account-key-file FILE]...
                           [--service-account-issuer URL]... [--api-audiences A,B] [--authorization-mode Node,RBAC|RBAC]
                           [--token-auth-file FILE] [--anonymous-auth] [--log-level debug|info|error]
                           [--authorization-webhook-url URL [--authorization-webhook-ca-file FILE]]
                           [--audit-policy-file FILE] [--audit-log-path FILE|-] [--audit-webhook-config-file FILE]
                           [--kubelet-certificate-authority FILE]
                           [--kubelet-client-certificate FILE --kubelet-client-key FILE]
`;

export const CLUSTER_USAGE = `  gardener-local cluster up NAME [--data-dir DIR] [--image-map FILE] [--nodes N] [--zones A,B,...]
                                         start cluster NAME in the background; returns when it is ready.
                                         --nodes: kubelets NAME-node, NAME-node-2, ... (default 1, at most 16);
                                         --zones: their topology.kubernetes.io/zone labels, round robin. Both are
                                         fixed at the first up; a later up with other values is refused
  gardener-local cluster down NAME [--data-dir DIR]   stop it and every process it started
  gardener-local cluster list [--data-dir DIR]        the clusters in DIR and whether they run
  gardener-local cluster run NAME [--data-dir DIR] [--image-map FILE] [--nodes N] [--zones A,B,...]
                                         the supervisor itself, in the foreground
  (DIR defaults to .local/clusters; cluster NAME keeps everything in DIR/NAME, its kubeconfig is DIR/NAME/kubeconfig)
`;

/** The usage lines of both commands, for `gardener-local --help`. */
export const COMPONENT_USAGE = `  gardener-local controller-manager --kubeconfig FILE [--controllers A,B,...] [--node-monitor-grace-period 40s]
                           [--use-service-account-credentials] [--secure-port 10257] [--bind-address 0.0.0.0]
                           [--tls-cert-file FILE --tls-private-key-file FILE] [--no-leader-elect] [--log-level L]
                           [--cluster-signing-cert-file FILE --cluster-signing-key-file FILE |
                            --cluster-signing-{kube-apiserver-client,kubelet-client,kubelet-serving}-{cert,key}-file F]
                           [--cluster-signing-duration 8760h] [--root-ca-file CA_BUNDLE]
                           the local controller manager (kube-controller-manager's controllers) for the cluster of
                           FILE; --controllers names ours, by default every one kube-controller-manager has; approved
                           CSRs are signed with the --cluster-signing-* CAs (none given: not signed here); every
                           namespace's kube-root-ca.crt ConfigMap holds CA_BUNDLE (none given: not published here)
  gardener-local scheduler (--config KUBESCHEDULERCONFIG | --kubeconfig FILE) [--secure-port 10259] [--bind-address A]
                           [--tls-cert-file FILE --tls-private-key-file FILE] [--no-leader-elect] [--log-level L]
                           the local scheduler (kube-scheduler: pods of the configuration's profiles, else of
                           default-scheduler) for the cluster of its clientConnection.kubeconfig or FILE
  gardener-local proxy (--config KUBEPROXYCONFIG | --kubeconfig FILE) --state-file FILE [--master URL]
                           [--healthz-bind-address 0.0.0.0:10256] [--log-level L]
                           the local service proxy (kube-proxy) for the cluster of its clientConnection.kubeconfig or
                           FILE: every Service port on 127.0.0.1, the table in FILE (what a node's Pods resolve
                           Services with: the kubelet's --services-file); paths may be paths of its Pod's mounts
`;

export const SEED_USAGE = `  gardener-local seed up NAME [--data-dir DIR] [--image-map FILE]
                           another seed for the running landscape of DIR (default .local/landscape), as Gardener's
                           local setup adds local2: cluster NAME beside it (DIR/../NAME), a gardenlet from its chart
                           that registers Seed NAME in the garden, provider-local installed on it; then shoots can
                           be scheduled or migrated to it (spec.seedName)
  gardener-local seed down NAME [--data-dir DIR]     stop its cluster and every process of it (the Seed stays registered)
`;

export const SHOOT_USAGE = `  gardener-local shoot create -f FILE [-n NS]     create the Shoot in FILE (Gardener's example works as is), then watch it
  gardener-local shoot watch NAME [-n NS]         follow the running operation until the shoot is Ready, hibernated or failed
  gardener-local shoot delete NAME [-n NS]        confirm (confirmation.gardener.cloud/deletion) and delete it, then watch until gone
  gardener-local shoot hibernate|wake-up NAME [-n NS]   set spec.hibernation.enabled, then watch
  gardener-local shoot kubeconfig NAME [-n NS] [--expiration 1h] [--seed-kubeconfig FILE]
                                                  print a short-lived admin kubeconfig of the shoot (a client
                                                  certificate of its client CA in group system:masters, as
                                                  shoots/adminkubeconfig issues it), from the garden alone: the
                                                  client CA is the InternalSecret NAME.ca-client the gardenlet syncs;
                                                  --seed-kubeconfig only for a shoot not reconciled since (its
                                                  ca-client is then read in the seed; default: the garden cluster)
    common: [--kubeconfig FILE] [--nats URL] [--no-watch] [--timeout 30m] [-o json|yaml]
    --nats (or GARDENER_NATS_URL): live task progress from the flow's events; without it the Shoot's
    lastOperation is polled. -o prints the final Shoot for scripts instead of the progress display.
`;
