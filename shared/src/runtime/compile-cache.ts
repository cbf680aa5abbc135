/**
 * Set (to 1) when an image is built, and by the local launcher before it starts a stack
 * (`warmCompileCache` in deploy/local/stack.ts): the service exits as soon as its modules are loaded,
 * before it reads its config or connects to anything (`runService`). Loading them stripped their
 * types into Node's compile cache (NODE_COMPILE_CACHE), so a service started afterwards reads the
 * stripped code and V8's code cache instead of loading Node's TypeScript stripper (about 17 MB of RSS
 * per process) and stripping every file again (docs/operations.md, "Compile cache"). Its own module,
 * so the launcher reads the name without loading the runtime.
 */
export const WARM_COMPILE_CACHE_ENV = 'ENRICH_WARM_COMPILE_CACHE';
