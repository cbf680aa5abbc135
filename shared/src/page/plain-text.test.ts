import { describe, expect, it } from 'vitest';
import { toPlainText } from './plain-text.ts';

describe('toPlainText', () => {
  it('drops tags, decodes (double-encoded) entities, folds whitespace and control characters', () => {
    expect(toPlainText('<p>Fish &amp;amp; Chips</p>\n\t<b>since&nbsp;1950</b>\u200b')).toBe('Fish & Chips since 1950');
  });

  it('drops a tag cut in half at the end of a truncated text', () => {
    expect(toPlainText('We bake bread <a href="/very-long')).toBe('We bake bread');
  });
});
