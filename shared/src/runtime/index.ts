export * from './config.ts';
export * from './logger.ts';
export * from './request-context.ts';
export * from './shutdown.ts';
export * from './health-server.ts';
export * from './service.ts';
export * from './compile-cache.ts';
