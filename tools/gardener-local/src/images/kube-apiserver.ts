// The program of local mode's kube-apiserver image: `gardener-local apiserver` bundled alone (see kube-scheduler.ts).
import { apiserverCommand } from '../apiserver-command.js';
import { runProgram } from '../program.js';
import { APISERVER_USAGE } from '../usage.js';

runProgram('kube-apiserver', (args) => apiserverCommand(args, `Usage:\n${APISERVER_USAGE}`));
