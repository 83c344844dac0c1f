// The program of local mode's kube-proxy image: `gardener-local proxy` bundled alone (see kube-scheduler.ts).
import { proxyCommand } from '../component-commands.js';
import { runProgram } from '../program.js';
import { COMPONENT_USAGE } from '../usage.js';

runProgram('kube-proxy', (args) => proxyCommand(args, `Usage:\n${COMPONENT_USAGE}`));
