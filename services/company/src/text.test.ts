import { describe, expect, it } from 'vitest';
import { withoutTitleLines } from './text.ts';

describe('withoutTitleLines', () => {
  it('drops the lines that repeat a title of three words or more, case and spacing aside', () => {
    const text = 'Acme Braces\nWe straighten teeth.\nbraces -  ACME Braces | Springfield';
    expect(withoutTitleLines(text, 'Braces - Acme Braces | Springfield')).toBe('Acme Braces\nWe straighten teeth.');
  });

  it('keeps a line that only contains the title, and every line when the title is short', () => {
    expect(withoutTitleLines('Welcome to Acme Braces Springfield today', 'Acme Braces Springfield')).toBe('Welcome to Acme Braces Springfield today');
    // A one- or two-word title shown as a line is usually the wordmark: a real use of the name.
    expect(withoutTitleLines('Acme Braces\nWe straighten teeth.', 'Acme Braces')).toBe('Acme Braces\nWe straighten teeth.');
    expect(withoutTitleLines('Some text', '')).toBe('Some text');
  });
});
