export { startProcess, stopAllProcesses, type RunningProcess } from './process.js';
export { waitFor, waitForHttp } from './wait.js';
export { freePort } from './ports.js';
export { workspaceRoot, appBundle, gardenerAsset } from './workspace.js';
export { describeComponentBinary, type ComponentBinaryCase } from './component-binary.js';
export { kubectl, runKubectl, kubectlBinary, type KubectlResult } from './kubectl.js';
