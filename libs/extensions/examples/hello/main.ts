// Runs the hello extension against the cluster of $KUBECONFIG (the seed); SIGTERM or Ctrl-C stops it.
import { Kinds, Manager } from '@gardener-ts/controller-runtime';
import { addHelloExtension } from './add.js';

const kubeConfig = process.env.KUBECONFIG;
if (!kubeConfig) throw new Error('set KUBECONFIG to the seed cluster');
const namespace = process.env.EXTENSION_NAMESPACE ?? 'extension-hello';
// The heartbeat watches its Lease: cache Leases of the extension's namespace only, not every Lease of the seed.
const mgr = await Manager.create({
  clusters: { seed: { kubeConfig, cache: { scopes: [{ kind: Kinds.Lease, scope: { namespace } }] } } },
});
addHelloExtension(mgr, { namespace });
process.once('SIGINT', () => void mgr.stop());
process.once('SIGTERM', () => void mgr.stop());
await mgr.start();
await mgr.done();
