import { libBuild } from '../../tsup.shared.js';

export default libBuild();
