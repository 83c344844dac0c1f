import { appBuild } from '../../tsup.shared.js';

export default appBuild('resource-manager');
