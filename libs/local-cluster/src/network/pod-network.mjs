// Preloaded (`node --import`) into Node.js programs that run as local pods. Pods share the machine's network, so
// two replicas listening on "all interfaces" at the same port would collide; each pod has its own loopback address
// (GARDENER_LOCAL_POD_IP, in 127.0.0.0/8) and this makes a wildcard listen bind that address instead — what the
// program would get in a pod network namespace. Explicit addresses and Unix sockets are left alone.
import net from 'node:net';

const podIP = process.env.GARDENER_LOCAL_POD_IP;
const WILDCARDS = new Set([undefined, null, '', '0.0.0.0', '::', '[::]']);

if (podIP) {
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (...args) {
    const [first, second] = args;
    if (first !== null && typeof first === 'object' && !('path' in first && first.path) && !('fd' in first) && !('_handle' in first)) {
      if (WILDCARDS.has(first.host)) args[0] = { ...first, host: podIP };
    } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first)) || first === undefined) {
      if (typeof second === 'string') {
        if (WILDCARDS.has(second)) args[1] = podIP;
      } else {
        args.splice(1, 0, podIP);
      }
    }
    return listen.apply(this, args);
  };
}
