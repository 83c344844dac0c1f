// The shoot's kube-apiserver as the gardenlet deploys it, run the way the local kubelet runs its Pod: Gardener's
// provider-local example Shoot, its secrets from the secrets manager (SeedShootSteps against a seed API server), the
// rendered Deployment's volumes written to disk, its image resolved through the built-in image map and its Gardener
// flags translated for `gardener-local apiserver`, which runs from the sources with the Pod network preload (its own
// loopback address, Service names from a services.json) against an etcd process serving TLS with the shoot's etcd
// certificates. Then: clients holding the shoot's CA and a client certificate of its client CA work, the static token
// authenticates, ServiceAccount tokens carry the shoot's issuer and signing key, a certificate of another CA is refused
// 401, Secrets are encrypted in etcd with the shoot's aescbc key, and the data is in etcd (a new API server with an
// empty state dir still finds it).
//
// One deviation from the Pod: `--secure-port=443` becomes a free port, since binding 443 needs privileges a test run
// may not have.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, Kinds } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { builtinImageMap, podNetworkEnv, startKubelet } from '@gardener-ts/local-cluster';
import { SecretsManager, decode } from '@gardener-ts/secrets-manager';
import {
  freePort,
  startProcess,
  startTestCluster,
  waitFor,
  workspaceRoot,
  type RunningProcess,
  type TestCluster,
} from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleValues } from '../src/component/testdata/fixtures.js';
import { serviceAccountIssuer } from '../src/component/kube-apiserver.js';
import { SecretNames, shootSecretConfigs, StaticTokenUsers } from '../src/component/secrets.js';
import { SecretsManagerIdentity, SeedShootSteps } from '../src/shoot/seed-steps.js';

const POD_IP = '127.201.0.7';
const cliSource = join(workspaceRoot(), 'tools', 'gardener-local', 'src', 'cli.ts');

interface Credentials {
  ca: string;
  cert?: string;
  key?: string;
  token?: string;
}

interface Answer {
  status: number;
  body: any;
}

let seed: TestCluster;
let dir: string;
let etcd: RunningProcess;
let apiserver: RunningProcess;
let argv: string[];
let env: Record<string, string>;
let port: number;
let etcdPort: number;
let etcdClient: { ca: string; cert: string; key: string };
let shootCA: string;
let admin: Credentials;
let staticToken: string;
const ignored: string[] = [];
const values = exampleValues();
let client: ApiClient;
let deployment: any;
let servicesFile: string;
const builtCli = join(workspaceRoot(), 'dist/tools/gardener-local/images/kube-apiserver.js');

/** One request to the shoot API server, verified against the shoot CA under its Service name. */
function call(
  who: Credentials,
  method: string,
  path: string,
  body?: unknown,
  target: { host: string; port: () => number; servername?: string } = { host: POD_IP, port: () => port },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.host,
        port: target.port(),
        method,
        path,
        servername: target.servername ?? 'kube-apiserver',
        ca: who.ca,
        cert: who.cert,
        key: who.key,
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(who.token ? { authorization: `Bearer ${who.token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON: keep the text.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The raw value etcd holds at `key` (its JSON gateway, with the shoot's etcd client certificate). */
async function etcdValue(key: string): Promise<Buffer | undefined> {
  const res = await call(
    etcdClient,
    'POST',
    '/v3/kv/range',
    { key: Buffer.from(key).toString('base64') },
    { host: '127.0.0.1', port: () => etcdPort, servername: 'etcd-main-client' },
  );
  expect(res.status).toBe(200);
  const value = res.body.kvs?.[0]?.value;
  return value === undefined ? undefined : Buffer.from(value, 'base64');
}

/** The user the API server sees (SelfSubjectReview), or the status of the refusal. */
async function whoAmI(who: Credentials): Promise<{ status: number; username?: string; groups?: string[] }> {
  const res = await call(who, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
  });
  return { status: res.status, ...res.body?.status?.userInfo };
}

// What the kubelet does before it starts the container: every volume of the Pod in a directory (Secret and ConfigMap
// keys as files), each mount path in the args replaced by its directory.
async function materializeVolumes(client: ApiClient, deployment: any): Promise<string[]> {
  const spec = deployment.spec.template.spec;
  const volumeDirs = new Map<string, string>();
  for (const volume of spec.volumes) {
    const volumeDir = join(dir, 'volumes', volume.name);
    await mkdir(volumeDir, { recursive: true });
    const data: Record<string, Buffer> = {};
    if (volume.secret) {
      const secret = await client.get(Kinds.Secret, { namespace: values.namespace, name: volume.secret.secretName });
      for (const key of Object.keys(secret.data ?? {})) data[key] = decode(secret, key);
    } else {
      const map = await client.get(Kinds.ConfigMap, { namespace: values.namespace, name: volume.configMap.name });
      for (const [key, text] of Object.entries(map.data ?? {})) data[key] = Buffer.from(text as string);
    }
    for (const [key, content] of Object.entries(data)) await writeFile(join(volumeDir, key), content, { mode: 0o600 });
    volumeDirs.set(volume.name, volumeDir);
  }
  const container = spec.containers[0];
  const mounts = (container.volumeMounts as { name: string; mountPath: string }[])
    .map((m) => ({ path: m.mountPath, dir: volumeDirs.get(m.name)! }))
    .sort((a, b) => b.path.length - a.path.length);
  return (container.args as string[]).map((arg) => {
    for (const m of mounts) if (arg.includes(`=${m.path}/`)) return arg.replace(`=${m.path}/`, `=${m.dir}/`);
    return arg;
  });
}

async function startEtcd(client: ApiClient, secrets: SeedShootSteps['secrets']): Promise<void> {
  const pki = join(dir, 'etcd-pki');
  await mkdir(pki, { recursive: true });
  const read = async (name: string, key: string) =>
    decode(await client.get(Kinds.Secret, { namespace: values.namespace, name }), key);
  await writeFile(join(pki, 'ca.crt'), await read(secrets.bundles[SecretNames.CAETCD], 'bundle.crt'));
  await writeFile(join(pki, 'tls.crt'), await read(secrets.secrets[SecretNames.ETCDServerMain], 'tls.crt'));
  await writeFile(join(pki, 'tls.key'), await read(secrets.secrets[SecretNames.ETCDServerMain], 'tls.key'), {
    mode: 0o600,
  });
  etcdClient = {
    ca: (await read(secrets.bundles[SecretNames.CAETCD], 'bundle.crt')).toString(),
    cert: (await read(secrets.secrets[SecretNames.ETCDClient], 'tls.crt')).toString(),
    key: (await read(secrets.secrets[SecretNames.ETCDClient], 'tls.key')).toString(),
  };
  etcdPort = await freePort();
  const peer = `http://127.0.0.1:${await freePort()}`;
  const clientURL = `https://127.0.0.1:${etcdPort}`;
  etcd = startProcess('/usr/bin/etcd', [
    '--name=etcd-main-0',
    `--data-dir=${join(dir, 'etcd-data')}`,
    `--listen-client-urls=${clientURL}`,
    `--advertise-client-urls=${clientURL}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=etcd-main-0=${peer}`,
    `--cert-file=${join(pki, 'tls.crt')}`,
    `--key-file=${join(pki, 'tls.key')}`,
    `--trusted-ca-file=${join(pki, 'ca.crt')}`,
    '--client-cert-auth=true',
  ]);
  // etcd 3.4 says "ready to serve client requests", 3.5 "serving client traffic securely".
  await waitFor(
    'etcd to serve',
    () => {
      if (/ready to serve client requests|serving client traffic/.test(etcd.output())) return true;
      if (etcd.child.exitCode !== null) throw new Error(`etcd exited:\n${etcd.output()}`);
      return undefined;
    },
    { timeoutMs: 30_000 },
  );
}

/** Starts the translated API server with a state dir of its own; resolves once it serves. */
async function startShootAPIServer(stateDir: string): Promise<RunningProcess> {
  const args = argv.map((a) => (a === '--data-dir-placeholder' ? stateDir : a));
  const proc = startProcess(
    process.execPath,
    ['--conditions=@gardener-ts/source', '--import', 'tsx', cliSource, ...args],
    { cwd: workspaceRoot(), env },
  );
  // Fails at once when the server exits instead of serving.
  const outcome = await waitFor(
    'the shoot API server to serve or exit',
    () => {
      if (proc.output().includes('Local API server ready')) return 'ready';
      return proc.child.exitCode !== null ? 'exited' : undefined;
    },
    { timeoutMs: 60_000 },
  );
  if (outcome === 'exited') throw new Error(`the shoot API server exited:\n${proc.output()}`);
  return proc;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shoot-kube-apiserver-'));
  seed = await startTestCluster();
  client = await ApiClient.create(seed.kubeconfigPath);
  // The gardenlet's steps: namespace, secrets (Gardener's RSA keys), kube-apiserver's configuration and Deployment.
  const steps = new SeedShootSteps(client, values);
  await steps.deployNamespace();
  await steps.initializeSecretsManagement();
  await steps.deployKubeAPIServer();
  const secrets = steps.secrets;
  deployment = await client.get(Kinds.Deployment, { namespace: values.namespace, name: 'kube-apiserver' });

  // A client certificate of the shoot's client CA for system:masters, as `shoots/adminkubeconfig` issues one.
  const manager = await SecretsManager.create(client, {
    namespace: values.namespace,
    identity: SecretsManagerIdentity,
  });
  const caClient = shootSecretConfigs(values).find((c) => c.config.name === SecretNames.CAClient)!;
  await manager.generate(caClient.config, caClient.options);
  const adminCert = await manager.generate(
    {
      kind: 'certificate',
      name: 'test-admin',
      commonName: 'system:admin',
      organization: ['system:masters'],
      certType: 'client',
    },
    { signedByCA: SecretNames.CAClient },
  );
  shootCA = decode(
    await client.get(Kinds.Secret, { namespace: values.namespace, name: secrets.bundles[SecretNames.CACluster] }),
    'bundle.crt',
  ).toString();
  admin = { ca: shootCA, cert: decode(adminCert, 'tls.crt').toString(), key: decode(adminCert, 'tls.key').toString() };
  const tokens = decode(
    await client.get(Kinds.Secret, { namespace: values.namespace, name: secrets.secrets[SecretNames.StaticToken] }),
    'static_tokens.csv',
  ).toString();
  staticToken = tokens
    .split('\n')
    .find((l) => l.includes(`,${StaticTokenUsers[0].username},`))!
    .split(',')[0];

  await startEtcd(client, secrets);

  // The Pod's args with its volumes on disk, the image map's program and the flags translated.
  const container = (deployment.spec as any).template.spec.containers[0];
  port = await freePort();
  const podArgs = (await materializeVolumes(client, deployment)).map((a) =>
    a.startsWith('--secure-port=') ? `--secure-port=${port}` : a,
  );
  const image = builtinImageMap({ workspace: workspaceRoot() }).resolve(container.image);
  expect(image?.entry.binaries).toContain('kube-apiserver');
  expect(image!.command.at(-1)).toBe(join(workspaceRoot(), 'dist/tools/gardener-local/images/kube-apiserver.js'));
  argv = [
    'apiserver',
    ...image!.entry.translateArgs!(podArgs, {
      stateDir: '--data-dir-placeholder',
      ignored: (flag) => ignored.push(flag),
    }),
  ];
  // The Pod network: its own address, and etcd's Services on etcd's port (what the service proxy publishes).
  servicesFile = join(dir, 'services.json');
  const etcdService = (name: string, clusterIP: string) => ({
    namespace: values.namespace,
    name,
    clusterIP,
    host: '127.0.0.1',
    ports: [{ name: 'client', protocol: 'TCP', port: 2379, localPort: etcdPort }],
  });
  await writeFile(
    servicesFile,
    JSON.stringify({
      services: [etcdService('etcd-main-client', '10.99.0.10'), etcdService('etcd-events-client', '10.99.0.11')],
    }),
  );
  env = podNetworkEnv(
    POD_IP,
    { ...(process.env as Record<string, string>), GARDENER_LOCAL_SERVICES_FILE: servicesFile },
    values.namespace,
  );
  apiserver = await startShootAPIServer(join(dir, 'state-1'));
}, 180_000);

afterAll(async () => {
  await apiserver?.stop();
  await etcd?.stop();
  await seed?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the shoot's kube-apiserver with Gardener's flags", () => {
  it('reports the flags it cannot honour, and names the events etcd it stores in the main one', () => {
    expect(ignored).toContain('--enable-admission-plugins');
    expect(ignored).not.toContain('--encryption-provider-config');
    expect(ignored.find((f) => f.startsWith('--etcd-servers-overrides=/events#https://etcd-events-client:2379'))).toBe(
      '--etcd-servers-overrides=/events#https://etcd-events-client:2379 (one etcd only: these resources are stored in --etcd-servers)',
    );
    expect(argv).toEqual(
      expect.arrayContaining(['--storage', 'etcd', '--etcd-servers', 'https://etcd-main-client:2379']),
    );
  });

  it("serves the shoot's certificate on the Pod's address: a client of the shoot CA connects", async () => {
    // The TLS handshake against the shoot CA under the Service name works; /version is public.
    const version = await call({ ca: shootCA }, 'GET', '/version');
    expect(version).toMatchObject({ status: 200, body: { major: '1' } });
    // Anonymous is off (Gardener's default): a request without credentials is refused.
    expect((await call({ ca: shootCA }, 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(401);
  });

  it('authenticates a client certificate of the shoot client CA as kube does: CN the user, O the groups', async () => {
    expect(await whoAmI(admin)).toMatchObject({
      status: 201,
      username: 'system:admin',
      groups: expect.arrayContaining(['system:masters', 'system:authenticated']),
    });
  });

  it('lets that system:masters client create and list objects', async () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kept-in-etcd', namespace: 'default' },
      data: { hello: 'shoot' },
    };
    expect((await call(admin, 'POST', '/api/v1/namespaces/default/configmaps', cm)).status).toBe(201);
    const list = await call(admin, 'GET', '/api/v1/namespaces/default/configmaps');
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: any) => i.metadata.name)).toContain('kept-in-etcd');
  });

  it('refuses a certificate for the same user from another CA with 401', async () => {
    const other = await SecretsManager.create(await ApiClient.create(seed.kubeconfigPath), {
      namespace: 'default',
      identity: 'impostor',
    });
    await other.generate({ kind: 'certificate', name: 'ca-client', commonName: 'kubernetes-client', certType: 'ca' });
    const forged = await other.generate(
      {
        kind: 'certificate',
        name: 'forged-admin',
        commonName: 'system:admin',
        organization: ['system:masters'],
        certType: 'client',
      },
      { signedByCA: 'ca-client' },
    );
    const res = await whoAmI({
      ca: shootCA,
      cert: decode(forged, 'tls.crt').toString(),
      key: decode(forged, 'tls.key').toString(),
    });
    expect(res.status).toBe(401);
  });

  it("authenticates the static token file's health-check user", async () => {
    expect(await whoAmI({ ca: shootCA, token: staticToken })).toMatchObject({ status: 201, username: 'health-check' });
    expect((await whoAmI({ ca: shootCA, token: `${staticToken}x` })).status).toBe(401);
  });

  it("signs ServiceAccount tokens with the shoot's RSA key and issuer, and accepts them", async () => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'default' } };
    expect((await call(admin, 'POST', '/api/v1/namespaces/default/serviceaccounts', sa)).status).toBe(201);
    const issued = await call(admin, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    });
    expect(issued.status).toBe(201);
    const token: string = issued.body.status.token;
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('RS256');
    expect(payload.iss).toBe(serviceAccountIssuer(values));
    // A TokenRequest without audiences gets the API audiences (--api-audiences=kubernetes,gardener).
    expect(payload.aud).toEqual(['kubernetes', 'gardener']);
    expect(await whoAmI({ ca: shootCA, token })).toMatchObject({
      status: 201,
      username: 'system:serviceaccount:default:robot',
    });
  });

  it('encrypts Secrets in etcd with the aescbc key of the encryption configuration, other objects not', async () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'default' },
      stringData: { password: 'correct-horse-battery-staple' },
    };
    expect((await call(admin, 'POST', '/api/v1/namespaces/default/secrets', secret)).status).toBe(201);
    const stored = await etcdValue('/registry/core/secrets/default/db');
    expect(stored?.subarray(0, 18).toString()).toBe('k8s:enc:aescbc:v1:');
    expect(stored?.includes(Buffer.from('correct-horse')) || stored?.includes(Buffer.from('Y29ycmVjdC1ob3Jz'))).toBe(
      false,
    );
    const read = await call(admin, 'GET', '/api/v1/namespaces/default/secrets/db');
    expect(Buffer.from(read.body.data.password, 'base64').toString()).toBe('correct-horse-battery-staple');
    expect(JSON.parse((await etcdValue('/registry/core/configmaps/default/kept-in-etcd'))!.toString())).toMatchObject({
      data: { hello: 'shoot' },
    });
  });

  it('keeps its data in etcd: a new API server with an empty state dir serves the objects written before', async () => {
    await apiserver.stop();
    apiserver = await startShootAPIServer(join(dir, 'state-2'));
    const cm = await call(admin, 'GET', '/api/v1/namespaces/default/configmaps/kept-in-etcd');
    expect(cm.status).toBe(200);
    expect(cm.body.data).toEqual({ hello: 'shoot' });
    const secret = await call(admin, 'GET', '/api/v1/namespaces/default/secrets/db');
    expect(Buffer.from(secret.body.data.password, 'base64').toString()).toBe('correct-horse-battery-staple');
  });
});

// The same Deployment's Pod template run by the local kubelet with the built-in image map: the kubelet mounts the
// Secrets and ConfigMaps from the seed, rewrites the mount paths, translates the flags and runs the built
// `gardener-local apiserver` on the Pod's own address, reaching etcd through the Service names of services.json. The
// Pod is created directly (no controller manager and scheduler here), with the free port instead of 443.
describe.skipIf(!existsSync(builtCli))("the shoot's kube-apiserver as a Pod of the local kubelet", () => {
  let kubelet: Awaited<ReturnType<typeof startKubelet>> | undefined;
  let podPort: number;
  let podIP: string;

  beforeAll(async () => {
    kubelet = await startKubelet({
      kubeconfig: seed.kubeconfigPath,
      nodeName: 'seed-node',
      dataDir: join(dir, 'kubelet'),
      workspace: workspaceRoot(),
      port: 0,
      podCIDR: '127.202.0.0/24',
      servicesFile,
      retryMs: 200,
      logger: createLogger({ name: 'kubelet', level: 'silent' }),
    });
    podPort = await freePort();
    const template = structuredClone(deployment.spec.template);
    const container = template.spec.containers[0];
    container.args = container.args.map((a: string) =>
      a.startsWith('--secure-port=') ? `--secure-port=${podPort}` : a,
    );
    container.ports = [{ name: 'https', containerPort: podPort, protocol: 'TCP' }];
    for (const probe of [container.livenessProbe, container.readinessProbe]) {
      probe.httpGet.port = podPort;
      probe.initialDelaySeconds = 0;
      probe.periodSeconds = 1;
    }
    await client.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'kube-apiserver-0', namespace: values.namespace, labels: template.metadata.labels },
      spec: { ...template.spec, nodeName: 'seed-node', terminationGracePeriodSeconds: 5 },
    } as any);
    const pod = await waitFor(
      'the kube-apiserver Pod to be Ready',
      async () => {
        const current: any = await client.get(Kinds.Pod, { namespace: values.namespace, name: 'kube-apiserver-0' });
        const ready = current.status?.conditions?.find((c: any) => c.type === 'Ready')?.status === 'True';
        return ready ? current : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    podIP = pod.status.podIP;
  }, 120_000);

  afterAll(async () => {
    await kubelet?.stop();
  });

  it("serves on the Pod's own address with the shoot's certificates, on the same etcd", async () => {
    expect(podIP).toMatch(/^127\.202\.0\.\d+$/);
    const target = { host: podIP, port: () => podPort };
    const who = await call(
      admin,
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      target,
    );
    expect(who.body.status.userInfo).toMatchObject({ username: 'system:admin' });
    // Written through the other API server: the same etcd, over TLS, reached as etcd-main-client.
    const cm = await call(admin, 'GET', '/api/v1/namespaces/default/configmaps/kept-in-etcd', undefined, target);
    expect(cm).toMatchObject({ status: 200, body: { data: { hello: 'shoot' } } });
    expect((await call({ ca: shootCA }, 'GET', '/api/v1/namespaces', undefined, target)).status).toBe(401);
  });
});
