// How the bastion Pod is configured (shared by provider-local's Bastion actuator, which writes it, and the bastion
// program, which reads it; free of ssh2): the directory its Secret is mounted at and the Secret's keys.

/** Where the bastion Pod mounts its Secret. */
export const BastionConfigDir = '/etc/bastion';
/** The Secret key of the Bastion's user data (Gardener's provider-local names it `userdata` too). */
export const UserDataKey = 'userdata';
/** The Secret key of the Bastion's `spec.ingress`, as JSON. */
export const IngressKey = 'ingress';
