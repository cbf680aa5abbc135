import { describe, expect, it } from 'vitest';
import { decodeEntities } from './entities.ts';

describe('decodeEntities', () => {
  it('decodes numeric references and the named table, exact name first, then lower-cased', () => {
    expect(decodeEntities('Joe&#39;s &#x2F; Caf&eacute; &copy; &AMP; &Uuml;ber &EACUTE;')).toBe("Joe's / Café © & Über é");
    expect(decodeEntities('&ldquo;Hi&rdquo; &euro;5 &pound;3 &laquo;x&raquo; 20&deg;')).toBe('“Hi” €5 £3 «x» 20°');
  });

  it('leaves unknown names, out-of-range numbers and prototype names as written', () => {
    expect(decodeEntities('&bogus; &#0; &#x110000; &constructor; &toString;')).toBe('&bogus; &#0; &#x110000; &constructor; &toString;');
  });

  it('needs the closing ; unless semicolonOptional', () => {
    expect(decodeEntities('a &amp b &#39 c &ampx')).toBe('a &amp b &#39 c &ampx');
    expect(decodeEntities('a &amp b &#39 c &ampx', { semicolonOptional: true })).toBe("a & b ' c &ampx");
  });

  it('decodes double-encoded text only with doubleEncoded', () => {
    expect(decodeEntities('Fish &amp;amp; Chips')).toBe('Fish &amp; Chips');
    expect(decodeEntities('Fish &amp;amp; Chips', { doubleEncoded: true })).toBe('Fish & Chips');
  });
});
