// The program of local mode's kube-controller-manager image: `gardener-local controller-manager` bundled alone (see
// kube-scheduler.ts).
import { controllerManagerCommand } from '../component-commands.js';
import { runProgram } from '../program.js';
import { COMPONENT_USAGE } from '../usage.js';

runProgram('kube-controller-manager', (args) => controllerManagerCommand(args, `Usage:\n${COMPONENT_USAGE}`));
