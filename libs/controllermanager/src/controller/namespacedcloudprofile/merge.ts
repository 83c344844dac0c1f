// The CloudProfile a NamespacedCloudProfile stands for (`status.cloudProfileSpec`): the merge lives in libs/api
// (`cloudprofile-merge.ts`), shared with gardener-apiserver's NamespacedCloudProfileValidator.
export { mergeCloudProfileSpec } from '@gardener-ts/api';
