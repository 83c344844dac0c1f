import { appBuild } from '../../tsup.shared.js';

export default appBuild('scheduler');
