// The process kubelet as a module, for a local machine that runs its kubelet.service in its own process: node-agent's
// machine program loads `dist/tools/gardener-local/images/kubelet.js` at run time, as it would run `cli.js kubelet`
// (the product apps do not depend on the substrate at build time). Same code as `gardener-local kubelet`, bundled
// alone so the machine loads only the kubelet (see kube-scheduler.ts). Its Pods' Node.js programs get the pod network
// preload of the CLI one folder up (`podNetworkPreload`).
export { podNetworkPreload, runKubelet, type RunKubeletOptions } from '@gardener-ts/local-cluster';
