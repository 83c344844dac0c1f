// The shoot's preferred API resources (client-go's `ServerPreferredResources`, what the botanist reads for the
// read-only ClusterRole): the core group's `v1` and the preferred version of every other group. A group whose
// document cannot be read is left out and named, as Gardener goes on with the groups it could read.
import type { Transport } from '@gardener-ts/controller-runtime';
import type { APIResourceList } from '../component/shoot-system.js';

interface ResourceListDocument {
  resources?: { name: string; verbs?: string[] }[];
}

interface GroupListDocument {
  groups?: { name: string; preferredVersion?: { groupVersion?: string }; versions?: { groupVersion: string }[] }[];
}

/** The preferred group-versions of an `/apis` document (pure). */
export function preferredGroupVersions(doc: GroupListDocument): string[] {
  return (doc.groups ?? []).flatMap((group) => {
    const gv = group.preferredVersion?.groupVersion ?? group.versions?.[0]?.groupVersion;
    return gv ? [gv] : [];
  });
}

/** Reads the preferred API resources; `failed` names the group-versions that could not be read. */
export async function preferredAPIResources(
  transport: Pick<Transport, 'request'>,
  signal?: AbortSignal,
): Promise<{ lists: APIResourceList[]; failed: string[] }> {
  const read = async (groupVersion: string, path: string): Promise<APIResourceList> => {
    const doc = await transport.request<ResourceListDocument>({ method: 'GET', path, ...(signal ? { signal } : {}) });
    return {
      groupVersion,
      resources: (doc.resources ?? []).map((r) => ({ name: r.name, verbs: r.verbs ?? [] })),
    };
  };
  const lists = [await read('v1', '/api/v1')];
  const groups = await transport.request<GroupListDocument>({
    method: 'GET',
    path: '/apis',
    ...(signal ? { signal } : {}),
  });
  const failed: string[] = [];
  const versions = preferredGroupVersions(groups);
  const results = await Promise.allSettled(versions.map((gv) => read(gv, `/apis/${gv}`)));
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') lists.push(result.value);
    else failed.push(versions[i]);
  });
  return { lists, failed };
}
