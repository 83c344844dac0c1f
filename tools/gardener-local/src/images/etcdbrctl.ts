// The program of local mode's etcd-backup-restore image: `gardener-local etcdbrctl` bundled alone (see
// kube-scheduler.ts).
import { runEtcdbrctl } from '@gardener-ts/gardenlet-controllers/etcdbr';
import { runProgram } from '../program.js';

runProgram('etcdbrctl', runEtcdbrctl);
