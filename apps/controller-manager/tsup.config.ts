import { appBuild } from '../../tsup.shared.js';

export default appBuild('controller-manager');
