// The bastion program (image gardener-ts/bastion): the SSH jump host provider-local's Bastion actuator runs as a
// bastion Pod (see @gardener-ts/providerlocal/ssh's runBastion for its flags and files).
import { parseBastionArgs, runBastion } from '@gardener-ts/providerlocal/ssh';

const server = await runBastion(parseBastionArgs(process.argv.slice(2)));
const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
