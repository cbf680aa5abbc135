import { describe, expect, it } from 'vitest';
import { compact } from './brand-name.ts';

describe('compact', () => {
  it('keeps lower-case letters and digits of every script, Latin accents dropped', () => {
    expect(compact('Ars Technica')).toBe('arstechnica');
    expect(compact('ars-technica.svg')).toBe('arstechnicasvg');
    expect(compact('Café Müller & Söhne')).toBe('cafemullersohne');
    expect(compact('Ørsted A/S')).toBe('orstedas');
    expect(compact('株式会社サンプル')).toBe('株式会社サンプル');
    expect(compact('ООО «Пример»')).toBe('ооопример');
  });

  it('decomposes before lower-casing, so compatibility letters survive', () => {
    expect(compact('\u210Cello')).toBe('hello');
    expect(compact('Ａｃｍｅ')).toBe('acme');
  });
});
