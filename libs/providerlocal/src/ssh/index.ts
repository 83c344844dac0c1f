// @gardener-ts/providerlocal/ssh: the SSH side of local mode — the bastion's jump host server (ssh2) and its program,
// the parser of the keys a Bastion's user data authorizes, the ingress firewall and the machine targets, and the SSH
// server of a machine (exec and shell in the node's root directory). A subpath of its own so that only the programs
// that serve SSH load ssh2.
export {
  authorizedKeysFromUserData,
  parseAuthorizedKeyLine,
  userOfAuthorizedKeysPath,
  type AuthorizedKey,
} from './authorized-keys.js';
export { ingressAllows, normalizeAddress, type BastionIngressPolicy } from './ingress.js';
export {
  MachinePodSelector,
  SSHPort,
  UnprivilegedPortOffset,
  machinesFromAPI,
  resolveTarget,
  unprivilegedPort,
  type MachineAddresses,
  type Target,
} from './targets.js';
export { authenticatePublicKey, generateHostKey } from './auth.js';
export { BastionServer, connectTarget, type BastionAccess, type BastionServerOptions } from './bastion-server.js';
export { NodeSSHServer, readNodeAuthorizedKeys, sessionEnv, type NodeSSHServerOptions } from './node-server.js';
export {
  HostKeyPath,
  SSHDBinary,
  listenWithUnprivilegedFallback,
  machineSSHPrograms,
  nodeHostKey,
  sshdPort,
  sshdProgram,
  type SSHDProgramOptions,
} from './sshd.js';
export { BastionConfigDir, IngressKey, UserDataKey } from './config.js';
export { parseBastionArgs, parseIngress, readAccess, runBastion, type BastionProgramOptions } from './program.js';
