/** The SSRF guard lives in shared/src/net/ssrf.ts (the edge checks webhook URLs with it too). */
export * from '@enrich/shared/net';
