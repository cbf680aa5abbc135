export * from './ssrf.ts';
