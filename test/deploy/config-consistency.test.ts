/**
 * The deployment files cannot silently fall behind the code. For every service under services/
 * (listed from the directory, not from a hard-coded table) this checks its image in the one
 * Dockerfile (deploy/docker/Dockerfile, the stages a build with SERVICE=<service> uses), the compose
 * service, the Tilt resource and the Kubernetes Deployment: a build, a healthcheck wired to the
 * port the service really opens, the dependencies it needs, and configuration that the service's own
 * zod schema (src/config.ts + the runtime's BaseConfigSchema) accepts, with every required variable
 * set and no variable the service does not know. No container engine runs here, so this is the
 * check that the files are exact.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { BaseConfigSchema, loadConfig } from '@enrich/shared/runtime';
import { describe, expect, it } from 'vitest';
import { IMAGE_ENV, type ServiceName } from '../../deploy/local/stack.ts';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

const services = readdirSync(join(root, 'services'))
  .filter((d) => statSync(join(root, 'services', d)).isDirectory() && existsSync(join(root, 'services', d, 'package.json')))
  .sort();
/** The service with an HTTP API of its own; every other one opens the runtime's probe server. */
const HTTP_SERVICE = 'edge';
/** Read by something other than the service's schema: the OTel SDK (OTEL_*), Chromium and Node. */
const isRuntimeVariable = (name: string): boolean => name.startsWith('OTEL_') || ['HOME', 'NODE_OPTIONS', 'NODE_COMPILE_CACHE', 'TZ'].includes(name);
/** Variables whose defaults are right on a laptop but wrong in a container. */
const MUST_SET_IN_CONTAINERS = ['NATS_URL', 'NATS_USER', 'NATS_PASSWORD', 'METRICS_PORT', 'OTEL_EXPORTER_OTLP_ENDPOINT'];

// ------------------------------------------------------------------------------------------------
// The services' own configuration schemas

type Shape = Record<string, z.ZodType>;

/** Every variable a service declares: the runtime's BaseConfigSchema plus the z.objects its src/config.ts exports. */
async function schemaOf(service: string): Promise<z.ZodObject> {
  const file = join(root, 'services', service, 'src', 'config.ts');
  let shape: Shape = { ...BaseConfigSchema.shape };
  if (existsSync(file)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (value instanceof z.ZodObject) shape = { ...shape, ...(value.shape as Shape) };
  }
  return z.object(shape);
}

/** Variables that neither default nor may be left out. */
function requiredVariables(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape as Shape)
    .filter(([, type]) => !type.safeParse(undefined).success)
    .map(([name]) => name);
}

/** Throws the runtime's own ConfigError (naming the variable and value) when the service would refuse to start. */
function assertServiceAccepts(schema: z.ZodObject, env: Record<string, string>, where: string): void {
  try {
    loadConfig(schema, env);
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`);
  }
}

// ------------------------------------------------------------------------------------------------
// docker-compose.yml

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { resources?: { limits?: { memory?: string } } };
  volumes?: string[];
  command?: string[];
  entrypoint?: string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };

/** `${VAR:-default}` as compose resolves it with VAR unset. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Za-z0-9_]+)(?::?-([^}]*))?\}/g, (_m, _name: string, fallback: string | undefined) => fallback ?? '');
}

function composeEnv(service: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(compose.services[service]?.environment ?? {})) env[k] = interpolate(v === null ? '' : String(v));
  return env;
}

function healthcheckCommand(svc: ComposeService): string {
  const test = svc.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

// ------------------------------------------------------------------------------------------------
// Kubernetes manifests

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: Record<string, unknown>;
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; configMapKeyRef?: { name: string; key: string } };
  }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
}

const kustomization = parse(read('deploy/k8s/kustomization.yaml')) as { resources: string[]; images?: { name: string }[] };
const k8sObjects: K8sObject[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(read(join('deploy/k8s', file))).map((doc) => {
    if (doc.errors.length) throw new Error(`deploy/k8s/${file}: ${doc.errors[0]?.message}`);
    return doc.toJS() as K8sObject;
  }),
);
const secretExample = parse(read('deploy/k8s/secret.example.yaml')) as K8sObject;
const find = (kind: string, name: string): K8sObject | undefined => k8sObjects.find((o) => o.kind === kind && o.metadata.name === name);
const configMap = (name: string): Record<string, string> => find('ConfigMap', name)?.data ?? {};

function containerOf(service: string): Container {
  const deployment = find('Deployment', service);
  const template = deployment?.spec?.template as { spec: { containers: Container[] } } | undefined;
  const container = template?.spec.containers.find((c) => c.name === service);
  if (!container) throw new Error(`deploy/k8s: no Deployment ${service} with a container ${service}`);
  return container;
}

/** The environment the pod gets; secret values come from secret.example.yaml. */
function k8sEnv(service: string): Record<string, string> {
  const c = containerOf(service);
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) {
      expect(find('ConfigMap', from.configMapRef.name), `${service}: ConfigMap ${from.configMapRef.name}`).toBeDefined();
      Object.assign(env, configMap(from.configMapRef.name));
    }
    if (from.secretRef) Object.assign(env, secretExample.stringData);
  }
  for (const e of c.env ?? []) {
    const secretRef = e.valueFrom?.secretKeyRef;
    if (secretRef) {
      expect(secretRef.name, `${service}: ${e.name} from the Secret`).toBe(secretExample.metadata.name);
      const value = secretExample.stringData?.[secretRef.key];
      expect(value, `${service}: secret.example.yaml has no ${secretRef.key}`).toBeDefined();
      env[e.name] = value as string;
    } else {
      env[e.name] = e.value ?? '';
    }
  }
  return env;
}

/** The container port a probe reaches (named or numbered). */
function probePort(c: Container, probe: Probe | undefined): number | undefined {
  const port = probe?.httpGet?.port;
  if (typeof port === 'number') return port;
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

/** `600M` / `600Mi` / `1G` / `1Gi` in MB (binary and decimal treated alike: the rule is approximate). */
function megabytes(quantity: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)([MG])i?$/.exec(quantity ?? '');
  if (!m) throw new Error(`unexpected memory quantity ${quantity}`);
  return Number(m[1]) * (m[2] === 'G' ? 1024 : 1);
}

// ------------------------------------------------------------------------------------------------
// deploy/docker/Dockerfile: one file, SERVICE chooses the service

const DOCKERFILE = 'deploy/docker/Dockerfile';
interface Stage {
  name: string;
  from: string;
  text: string;
}

/**
 * What a build with SERVICE=<service> of the default target uses: the lines before the first FROM,
 * then the stages on the FROM chain of the last stage (and those a `COPY --from=` names), with
 * ${SERVICE} replaced, in file order.
 */
function dockerfileFor(service: string): string {
  const [preamble = '', ...parts] = read(DOCKERFILE)
    .replaceAll('${SERVICE}', service)
    .split(/^(?=FROM )/m);
  const stages: Stage[] = parts.map((text) => {
    const m = /^FROM (\S+) AS (\S+)/.exec(text);
    if (!m) throw new Error(`${DOCKERFILE}: a stage without a name: ${text.split('\n')[0]}`);
    return { from: m[1] as string, name: m[2] as string, text };
  });
  const used = new Set<string>();
  const use = (name: string): void => {
    const stage = stages.find((st) => st.name === name);
    if (!stage || used.has(name)) return;
    used.add(name);
    use(stage.from);
    for (const m of stage.text.matchAll(/^COPY --from=(\S+)/gm)) use(m[1] as string);
  };
  use(stages[stages.length - 1]?.name ?? '');
  return (
    preamble +
    stages
      .filter((st) => used.has(st.name))
      .map((st) => st.text)
      .join('')
  );
}

/** The instruction (with its continuation lines) that wins: the last one in the stages used. */
function lastInstruction(dockerfile: string, instruction: string): string {
  const all = [...dockerfile.matchAll(new RegExp(`^${instruction} (?:.*\\\\\n)*.*`, 'gm'))].map((m) => m[0]);
  return all[all.length - 1] ?? '';
}

// ------------------------------------------------------------------------------------------------
// Tiltfile

const tiltfile = read('Tiltfile');
function tiltResource(name: string): { labels: string[]; deps: string[]; text: string } | undefined {
  const m = new RegExp(`dc_resource\\(\\s*'${name}'([\\s\\S]*?)\\)\\n(?=\\S|\\n)`).exec(tiltfile);
  if (!m) return undefined;
  const list = (key: string) => [...(new RegExp(`${key}=\\[([^\\]]*)\\]`).exec(m[1] as string)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((x) => x[1] as string);
  return { labels: list('labels'), deps: list('resource_deps'), text: m[1] as string };
}

// ------------------------------------------------------------------------------------------------

describe('deployment files match the services', () => {
  it('finds the services under services/', () => {
    expect(services).toEqual(expect.arrayContaining(['brand', 'classifier', 'company', 'edge', 'renderer']));
  });

  describe.each(services)('%s', (service) => {
    const isHttp = service === HTTP_SERVICE;

    it('has an image in the one multi-stage Dockerfile on Node 24 that runs src/main.ts as a non-root user with a healthcheck', () => {
      expect(existsSync(join(root, 'services', service, 'Dockerfile')), `services/${service}/Dockerfile: ${DOCKERFILE} is the only one`).toBe(false);
      expect(existsSync(join(root, 'services', service, 'src', 'main.ts'))).toBe(true);
      const raw = read(DOCKERFILE);
      expect(raw).toMatch(new RegExp(`^FROM base AS base-${service}$`, 'm'));
      expect(raw).toMatch(/^ARG SERVICE$/m);
      expect(raw).toMatch(/^FROM base-\$\{SERVICE\} AS app$/m);
      const dockerfile = dockerfileFor(service);
      expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-[a-z]+-slim$/m);
      expect(dockerfile).toContain(`npm ci --omit=dev --no-audit --no-fund -w shared -w services/${service}`);
      // npm ci refuses a lockfile whose workspaces are missing: every workspace manifest is copied.
      const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
      for (const ws of workspaces) expect(dockerfile, `COPY ${ws}/package.json`).toContain(`COPY ${ws}/package.json ${ws}/`);
      expect(dockerfile).toContain(`COPY services/${service}/src services/${service}/src`);
      expect(dockerfile).toContain('COPY shared/src shared/src');
      if (existsSync(join(root, 'services', service, 'data'))) expect(dockerfile).toContain(`COPY services/${service}/data services/${service}/data`);
      // Another service's stage is not in this build: its CMD or data cannot leak in.
      for (const other of services.filter((o) => o !== service)) expect(dockerfile).not.toContain(`services/${other}/src/main.ts`);
      expect(lastInstruction(dockerfile, 'CMD')).toBe(`CMD ["node", "services/${service}/src/main.ts"]`);
      const healthcheck = lastInstruction(dockerfile, 'HEALTHCHECK');
      expect(healthcheck).toMatch(/^HEALTHCHECK .*\n\s+CMD \["node", "-e", "fetch\('http:\/\/127\.0\.0\.1:'\+.*\/health'\)/m);
      expect(healthcheck).toContain(isHttp ? 'process.env.PORT' : 'process.env.HEALTH_PORT');
      // The last stage is the default build target, and it must not run as root.
      const stages = raw.split(/^FROM /m);
      const last = stages[stages.length - 1] as string;
      expect(last).toMatch(/^app AS runtime\nUSER node$/m);
      // Tilt builds the dev stage (see Tiltfile); it must exist and not run as root either.
      expect(raw).toMatch(/^FROM app AS dev\n(?:.*\n)*?USER node$/m);
    });

    it("runs locally with the memory settings its image sets (deploy/local/stack.ts IMAGE_ENV is the image's ENV)", () => {
      const stage = dockerfileFor(service);
      const imageEnv = (name: string): string | undefined =>
        // A value with spaces is quoted: NODE_OPTIONS="--a --b".
        [...stage.matchAll(new RegExp(`^\\s*(?:ENV\\s+)?${name}=(?:"([^"]*)"|(\\S+?))\\s*\\\\?$`, 'gm'))].map((m) => m[1] ?? m[2]).pop();
      for (const name of ['NODE_OPTIONS', 'MALLOC_ARENA_MAX']) expect(IMAGE_ENV[service as ServiceName]?.[name], name).toBe(imageEnv(name));
    });

    it('is a compose service built from the Dockerfile for it, with a healthcheck on the port it opens, dependencies and a memory limit', () => {
      const svc = compose.services[service];
      expect(svc, `docker-compose.yml has no service ${service}`).toBeDefined();
      expect(svc?.build).toEqual({ context: '.', dockerfile: DOCKERFILE, target: 'runtime', args: { SERVICE: service } });
      expect(svc?.image).toBe(`enrich/${service}:dev`);
      const env = composeEnv(service);
      const port = isHttp ? env.PORT : env.HEALTH_PORT;
      expect(port, isHttp ? 'PORT' : 'HEALTH_PORT').toMatch(/^\d+$/);
      expect(healthcheckCommand(svc as ComposeService)).toContain(`fetch('http://127.0.0.1:${port}/health')`);
      expect(svc?.depends_on?.nats?.condition).toBe('service_healthy');
      for (const [dep, { condition }] of Object.entries(svc?.depends_on ?? {})) {
        expect(compose.services[dep], `depends_on ${dep}`).toBeDefined();
        // Whatever a service waits for as healthy must have a healthcheck, or compose waits forever.
        if (condition === 'service_healthy') expect(compose.services[dep]?.healthcheck, `${dep} healthcheck`).toBeDefined();
      }
      if (env.STORE === 'mongo') {
        expect(svc?.depends_on?.mongo?.condition).toBe('service_healthy');
        expect(env.MONGODB_URI).toMatch(/^mongodb:\/\/mongo:27017/);
      }
      if (env.S3_BUCKET) expect(svc?.depends_on?.['minio-init']?.condition).toBe('service_completed_successfully');
      expect(env.NATS_URL).toBe('nats://nats:4222');
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
      expect(svc?.deploy?.resources?.limits?.memory).toMatch(/^\d+[MG]$/);
    });

    it('gets a configuration in compose that the service accepts, with nothing it does not know', async () => {
      const schema = await schemaOf(service);
      const env = composeEnv(service);
      const declared = Object.keys(schema.shape);
      for (const name of Object.keys(env))
        expect(declared.includes(name) || isRuntimeVariable(name), `compose sets ${name}, which ${service} does not read`).toBe(true);
      for (const name of [...requiredVariables(schema), ...MUST_SET_IN_CONTAINERS, ...(isHttp ? [] : ['HEALTH_PORT'])]) {
        expect(env[name], `compose must set ${name} for ${service}`).toBeTruthy();
      }
      assertServiceAccepts(schema, env, `docker-compose.yml ${service}`);
    });

    it('has a Tilt image build with live update and a labelled resource with the same dependencies as compose', () => {
      const list = /^SERVICES = \[([^\]]*)\]$/m.exec(tiltfile)?.[1] ?? '';
      expect([...list.matchAll(/'([^']+)'/g)].map((m) => m[1])).toContain(service);
      expect(tiltfile).toContain("docker_build(\n        'enrich/' + name,");
      expect(tiltfile).toContain(`dockerfile='${DOCKERFILE}'`);
      expect(tiltfile).toContain("build_args={'SERVICE': name}");
      // Tilt sends only the listed files: the Dockerfile copies every workspace manifest.
      const only = /only=\[([^\]]*)\]/.exec(tiltfile)?.[1] ?? '';
      for (const ws of (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces)
        expect(only, `Tilt's only= lists ${ws}/package.json`).toContain(`'${ws}/package.json'`);
      expect(tiltfile).toContain("sync('services/%s/src' % name, '/app/services/%s/src' % name)");
      expect(tiltfile).toContain("sync('shared/src', '/app/shared/src')");
      const resource = tiltResource(service);
      expect(resource, `Tiltfile has no dc_resource('${service}')`).toBeDefined();
      expect(resource?.labels).toEqual(['services']);
      expect([...(resource?.deps ?? [])].sort()).toEqual(Object.keys(compose.services[service]?.depends_on ?? {}).sort());
    });

    it('is a Kubernetes Deployment with probes on the port it opens, resources, a PDB and a configuration it accepts', async () => {
      const c = containerOf(service);
      expect(c.image).toBe(`enrich/${service}`);
      expect(kustomization.images?.map((i) => i.name)).toContain(`enrich/${service}`);
      const env = k8sEnv(service);
      const port = Number(isHttp ? env.PORT : env.HEALTH_PORT);
      expect(port).toBeGreaterThan(0);
      expect(c.livenessProbe?.httpGet?.path).toBe('/health');
      expect(c.readinessProbe?.httpGet?.path).toBe('/ready');
      expect(c.startupProbe?.httpGet?.path).toBe('/health');
      for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) expect(probePort(c, probe)).toBe(port);
      expect(c.ports?.find((p) => p.name === 'metrics')?.containerPort).toBe(Number(env.METRICS_PORT));
      expect(c.resources?.requests?.cpu).toBeTruthy();
      expect(c.resources?.requests?.memory).toBeTruthy();
      expect(c.resources?.limits?.memory).toBeTruthy();
      const pdb = find('PodDisruptionBudget', service);
      expect((pdb?.spec?.selector as { matchLabels: Record<string, string> } | undefined)?.matchLabels).toEqual({ 'app.kubernetes.io/name': service });
      const deploymentSelector = (find('Deployment', service)?.spec?.selector as { matchLabels: Record<string, string> } | undefined)?.matchLabels;
      expect(deploymentSelector).toEqual({ 'app.kubernetes.io/name': service });

      const schema = await schemaOf(service);
      const declared = Object.keys(schema.shape);
      for (const name of Object.keys(env))
        expect(declared.includes(name) || isRuntimeVariable(name), `k8s sets ${name}, which ${service} does not read`).toBe(true);
      for (const name of [...requiredVariables(schema), ...MUST_SET_IN_CONTAINERS]) expect(env[name], `k8s must set ${name} for ${service}`).toBeTruthy();
      assertServiceAccepts(schema, env, `deploy/k8s ${service}`);
    });
  });
});

describe('deployment files agree with each other', () => {
  it('scales the edge and the renderer with HPAs on their Deployments', () => {
    for (const name of ['edge', 'renderer']) {
      const hpa = find('HorizontalPodAutoscaler', name);
      expect(hpa, `HPA ${name}`).toBeDefined();
      expect(hpa?.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(Number(hpa?.spec?.minReplicas)).toBeGreaterThanOrEqual(2); // a PDB with maxUnavailable 1 needs two
    }
    const service = find('Service', 'edge');
    expect((service?.spec?.selector as Record<string, string> | undefined)?.['app.kubernetes.io/name']).toBe('edge');
  });

  it('scales the renderer on its own load gauge, which the renderer exports and the adapter rule exposes', () => {
    const metrics = (find('HorizontalPodAutoscaler', 'renderer')?.spec?.metrics ?? []) as Array<{
      type: string;
      pods?: { metric: { name: string }; target: { type: string; averageValue: string } };
    }>;
    const pods = metrics.find((m) => m.type === 'Pods')?.pods;
    expect(pods?.metric.name).toBe('renderer_pool_load');
    expect(pods?.target).toEqual({ type: 'AverageValue', averageValue: '700m' });
    // The OpenTelemetry name the Prometheus exporter turns into renderer_pool_load.
    expect(read('services/renderer/src/metrics.ts')).toContain("'renderer.pool.load'");
    const adapter = parse(read('deploy/k8s/adapter/prometheus-adapter-values.yaml')) as {
      rules: { custom: Array<{ seriesQuery: string; name: { as: string } }> };
    };
    expect(adapter.rules.custom.map((r) => r.name.as)).toContain('renderer_pool_load');
    expect(read('docs/operations.md')).toContain('renderer_pool_load');
  });

  it('sizes the renderer by the documented rule: 300 MB + 150 MB per concurrent page', () => {
    const rule = (concurrency: string | undefined) => 300 + 150 * Number(concurrency);
    expect(megabytes(compose.services.renderer?.deploy?.resources?.limits?.memory)).toBe(rule(composeEnv('renderer').RENDER_CONCURRENCY));
    const c = containerOf('renderer');
    expect(megabytes(c.resources?.limits?.memory)).toBe(rule(k8sEnv('renderer').RENDER_CONCURRENCY));
    expect(read('docs/operations.md')).toMatch(/ceil\(peak concurrent renders \/ RENDER_CONCURRENCY\)/);
  });

  it('lists every manifest in the kustomization, and keeps the Secret out of it', () => {
    const files = readdirSync(join(root, 'deploy/k8s')).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml' && f !== 'secret.example.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    expect(kustomization.resources).not.toContain('secret.example.yaml');
    expect(k8sObjects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  it('pins every compose image and mounts only files that exist', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (svc.build) continue;
      expect(svc.image, `${name} image`).toMatch(/:[^:]+$/);
      expect(svc.image, `${name} image`).not.toMatch(/:latest$/);
      for (const volume of svc.volumes ?? []) {
        const source = volume.split(':')[0] as string;
        if (source.startsWith('./')) expect(existsSync(join(root, source)), `${name} mounts ${source}`).toBe(true);
      }
    }
    expect(compose.services.nats?.image).toMatch(/^nats:2\.1[2-9]/);
    expect(compose.services.mongo?.image).toBe('mongo:8');
  });

  it('keeps the overlays pinned, mounting files that exist, and scraping every service', () => {
    const overlays = readdirSync(root).filter((f) => /^docker-compose\..+\.ya?ml$/.test(f));
    for (const file of overlays) {
      const overlay = parse(read(file), { merge: true }) as { services: Record<string, ComposeService> };
      for (const [name, svc] of Object.entries(overlay.services)) {
        if (svc.image) expect(svc.image, `${file} ${name}`).toMatch(/:[^:]+$/);
        if (svc.image) expect(svc.image, `${file} ${name}`).not.toMatch(/:latest$/);
        for (const volume of svc.volumes ?? []) {
          const source = volume.split(':')[0] as string;
          if (source.startsWith('./')) expect(existsSync(join(root, source)), `${file} ${name} mounts ${source}`).toBe(true);
        }
        for (const dep of Object.keys(svc.depends_on ?? {}))
          expect(compose.services[dep] ?? overlay.services[dep], `${file} ${name} depends_on ${dep}`).toBeDefined();
      }
    }
    const scrape = read('deploy/docker/prometheus/prometheus.yml');
    for (const service of services) expect(scrape, `prometheus scrapes ${service}`).toContain(`"${service}:${composeEnv(service).METRICS_PORT}"`);
  });

  it('runs NATS with JetStream and a deliberate max_payload', () => {
    const conf = read('deploy/docker/nats/nats.conf');
    expect(conf).toMatch(/^max_payload: \S+/m);
    expect(conf).toMatch(/^jetstream \{/m);
    expect(compose.services.nats?.command).toEqual(['-c', '/etc/nats/nats.conf']);
    expect(healthcheckCommand(compose.services.nats as ComposeService)).toContain('js-enabled-only=true');
  });

  it('creates the bucket the renderer writes to, readable object by object', () => {
    const bucket = composeEnv('renderer').S3_BUCKET;
    expect(composeEnv('minio-init').S3_BUCKET).toBe(bucket);
    expect(composeEnv('minio-init').S3_ACCESS_KEY_ID).toBe(composeEnv('renderer').S3_ACCESS_KEY_ID);
    const publicRead = JSON.parse(read('deploy/docker/minio/screenshots-public-read.json')) as { Statement: { Action: string[]; Resource: string[] }[] };
    expect(publicRead.Statement).toEqual([expect.objectContaining({ Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${bucket}/*`] })]);
    const writer = read('deploy/docker/minio/screenshots-writer.json');
    expect(writer).toContain(`arn:aws:s3:::${bucket}/*`);
    expect(composeEnv('renderer').S3_PUBLIC_URL).toBe(`http://localhost:9000/${bucket}`);
  });

  it('sends telemetry to a collector that forwards traces to the trace UI', () => {
    const collector = parse(read('deploy/otel-collector/config.yaml')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint?: string }>;
      service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
    };
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    const traceExporters = collector.service.pipelines.traces?.exporters ?? [];
    expect(traceExporters.map((e) => collector.exporters[e]?.endpoint)).toContain('jaeger:4317');
    for (const pipeline of Object.values(collector.service.pipelines)) for (const e of pipeline.exporters) expect(collector.exporters[e], e).toBeDefined();
    expect(compose.services['otel-collector']?.volumes).toContain('./deploy/otel-collector/config.yaml:/etc/otelcol-contrib/config.yaml:ro');
    expect(compose.services.jaeger?.image).toMatch(/^jaegertracing\/jaeger:2\./);
  });

  it('gives every compose service a labelled Tilt resource and links the API docs and the trace UI', () => {
    const group = (name: string) => (compose.services[name]?.build ? 'services' : ['otel-collector', 'jaeger'].includes(name) ? 'observability' : 'infra');
    for (const name of Object.keys(compose.services)) expect(tiltResource(name)?.labels, `dc_resource('${name}')`).toEqual([group(name)]);
    expect(tiltResource('edge')?.text).toContain("link('http://localhost:8080/docs'");
    expect(tiltfile).toContain("link('http://localhost:16686'");
    expect(tiltfile).toMatch(/docker_compose\('\.\/docker-compose\.yml'\)/);
    expect(tiltfile).toMatch(/local_resource\(\s*'tests',[\s\S]*?auto_init=False,[\s\S]*?trigger_mode=TRIGGER_MODE_MANUAL/);
  });
});

// ------------------------------------------------------------------------------------------------
// Hardening: credentials, production switches, the renderer's network fence

interface PolicyPort {
  port?: number | string;
  protocol?: string;
}
interface PolicyPeer {
  ipBlock?: { cidr: string; except?: string[] };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  podSelector?: { matchLabels?: Record<string, string> };
}
interface NetworkPolicySpec {
  podSelector: { matchLabels: Record<string, string> };
  policyTypes: string[];
  ingress?: { from?: PolicyPeer[]; ports?: PolicyPort[] }[];
  egress?: { to?: PolicyPeer[]; ports?: PolicyPort[] }[];
}

function cidrList(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net, prefix] = cidr.split('/') as [string, string];
    list.addSubnet(net, Number(prefix), isIP(net) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** Whether the policy's ipBlock rules let the pod open `protocol` to `ip`:`port` (as the network plugin decides). */
function egressAllows(spec: NetworkPolicySpec, ip: string, port: number, protocol: 'TCP' | 'UDP'): boolean {
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  return (spec.egress ?? []).some((rule) => {
    const portOk = !rule.ports || rule.ports.some((p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port));
    const peerOk = (rule.to ?? []).some((peer) => {
      if (!peer.ipBlock) return false;
      if (isIP(peer.ipBlock.cidr.split('/')[0] as string) !== isIP(ip)) return false;
      return cidrList([peer.ipBlock.cidr]).check(ip, family) && !cidrList(peer.ipBlock.except ?? []).check(ip, family);
    });
    return portOk && peerOk;
  });
}

describe('hardening in the deployment files', () => {
  it('builds every image with NODE_ENV=production, and the renderer settings pass its production check', async () => {
    for (const service of services) expect(dockerfileFor(service), service).toMatch(/^ENV NODE_ENV=production\b/m);
    const { refuseTestSwitchesInProduction } = (await import(pathToFileURL(join(root, 'services/renderer/src/config.ts')).href)) as {
      refuseTestSwitchesInProduction(env: Record<string, string>): void;
    };
    for (const [where, env] of [
      ['compose', composeEnv('renderer')],
      ['k8s', k8sEnv('renderer')],
    ] as const) {
      expect(() => refuseTestSwitchesInProduction({ ...env, NODE_ENV: 'production' }), where).not.toThrow();
    }
  });

  it("gives every service the NATS login: in compose the server's own, in k8s from the Secret only", () => {
    expect(read('deploy/docker/nats/nats.conf')).toMatch(/^authorization \{\n\s+user: \$NATS_USER\n\s+password: \$NATS_PASSWORD\n/m);
    const server = composeEnv('nats');
    expect(server.NATS_USER).toBeTruthy();
    // nats-server parses the substituted value: a plain token (docs/operations.md).
    expect(server.NATS_PASSWORD).toMatch(/^[A-Za-z][A-Za-z0-9._-]{11,}$/);
    for (const service of services) {
      const env = composeEnv(service);
      expect([env.NATS_USER, env.NATS_PASSWORD], `compose ${service}`).toEqual([server.NATS_USER, server.NATS_PASSWORD]);
      for (const key of ['NATS_USER', 'NATS_PASSWORD']) {
        const ref = containerOf(service).env?.find((e) => e.name === key)?.valueFrom?.secretKeyRef;
        expect(ref, `k8s ${service} ${key}`).toEqual({ name: secretExample.metadata.name, key });
      }
    }
    for (const o of k8sObjects.filter((x) => x.kind === 'ConfigMap')) expect(Object.keys(o.data ?? {}), o.metadata.name).not.toContain('NATS_PASSWORD');
  });

  it('fences the renderer with a NetworkPolicy: NATS, DNS, telemetry and public addresses over TCP; ingress on the probe port', () => {
    const policy = find('NetworkPolicy', 'renderer');
    expect(policy, 'NetworkPolicy renderer in the kustomization').toBeDefined();
    const spec = policy?.spec as unknown as NetworkPolicySpec;
    const selector = (find('Deployment', 'renderer')?.spec?.selector as { matchLabels: Record<string, string> } | undefined)?.matchLabels;
    expect(spec.podSelector.matchLabels).toEqual(selector);
    expect([...spec.policyTypes].sort()).toEqual(['Egress', 'Ingress']);

    // Ingress: from anywhere only on the probe port; anything else only from a named namespace.
    const c = containerOf('renderer');
    const probeName = c.ports?.find((p) => p.containerPort === probePort(c, c.readinessProbe))?.name;
    for (const rule of spec.ingress ?? []) {
      expect(rule.ports?.length, 'every ingress rule names its ports').toBeGreaterThan(0);
      if (!rule.from) expect(rule.ports?.map((p) => p.port)).toEqual([probeName]);
      else for (const peer of rule.from) expect(peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']).toBeTruthy();
    }

    // Egress: every rule names where to; the selector rules (NATS, DNS, telemetry) name their ports.
    const natsNamespace = /^nats:\/\/[^.]+\.([^.]+)\.svc\./.exec(configMap('enrich-common').NATS_URL ?? '')?.[1];
    const natsRule = spec.egress?.find((r) => r.to?.some((p) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === natsNamespace));
    expect(natsRule?.ports).toEqual([{ port: 4222, protocol: 'TCP' }]);
    expect(spec.egress?.some((r) => r.ports?.some((p) => p.port === 53 && p.protocol === 'UDP'))).toBe(true);
    for (const rule of spec.egress ?? []) {
      expect(rule.to?.length, 'no egress rule without a destination').toBeGreaterThan(0);
      if (rule.to?.some((p) => !p.ipBlock))
        expect(
          rule.ports?.every((p) => p.port !== undefined),
          'selector rules name their ports',
        ).toBe(true);
    }
    const forbidden = [
      '10.0.0.1',
      '10.96.0.1',
      '172.16.5.4',
      '172.31.255.254',
      '192.168.1.1',
      '100.64.0.1',
      '100.127.1.1',
      '169.254.169.254',
      '169.254.1.1',
      '127.0.0.1',
      'fd00:ec2::254',
      'fc00::1',
      'fe80::1',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
    ];
    for (const ip of forbidden) for (const port of [80, 443, 4222, 8080]) expect(egressAllows(spec, ip, port, 'TCP'), `${ip}:${port}`).toBe(false);
    for (const [ip, port] of [
      ['93.184.215.14', 443],
      ['93.184.215.14', 80],
      ['8.8.8.8', 8443],
      ['2606:4700::6810:85e5', 443],
    ] as const) {
      expect(egressAllows(spec, ip, port, 'TCP'), `${ip}:${port}`).toBe(true);
      expect(egressAllows(spec, ip, port, 'UDP'), `UDP ${ip}:${port} (QUIC, WebRTC)`).toBe(false);
    }
  });
});
