import { describe, expect, it } from 'vitest';
import { compact } from './brand-name.ts';

describe('compact', () => {
  it('keeps lower-case ASCII letters and digits, accents dropped', () => {
    expect(compact('Ars Technica')).toBe('arstechnica');
    expect(compact('ars-technica.svg')).toBe('arstechnicasvg');
    expect(compact('Café Müller & Söhne')).toBe('cafemullersohne');
  });

  it('decomposes before lower-casing, so compatibility letters survive', () => {
    expect(compact('\u210Cello')).toBe('hello');
    expect(compact('Ａｃｍｅ')).toBe('acme');
  });
});
