import { libBuild } from '../../tsup.shared.js';

export default libBuild({ index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' });
