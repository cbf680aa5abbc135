export * from './common.ts';
export * from './snapshot.ts';
export * from './render.ts';
export * from './brand.ts';
export * from './company.ts';
export * from './classify.ts';
export * from './http.ts';
export * from './subjects.ts';
