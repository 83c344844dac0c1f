// The process kubelet as a module, for a local machine that runs its kubelet.service in its own process (node-agent's
// machine program loads `dist/tools/gardener-local/kubelet-run.js` at run time, as it would run `cli.js kubelet`: the
// product apps do not depend on the substrate at build time). Same code as `gardener-local kubelet`.
// tsyringe (under @peculiar/x509) needs the Reflect metadata polyfill before the shared chunks load.
import 'reflect-metadata';

export { runKubelet, type RunKubeletOptions } from '@gardener-ts/local-cluster';
