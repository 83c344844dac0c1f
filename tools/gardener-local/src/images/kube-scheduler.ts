// The program of local mode's kube-scheduler image: `gardener-local scheduler`, bundled alone. The image map
// (libs/local-cluster/src/images/builtin.ts) runs one such program per image, as a container image holds one binary:
// bundled on its own, a program keeps only the code it runs (the scheduler neither the API server nor the kubelet), so
// each of a shoot's Pods takes less memory than the whole CLI would.
import { schedulerCommand } from '../component-commands.js';
import { runProgram } from '../program.js';
import { COMPONENT_USAGE } from '../usage.js';

runProgram('kube-scheduler', (args) => schedulerCommand(args, `Usage:\n${COMPONENT_USAGE}`));
