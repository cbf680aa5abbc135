import { describe, expect, it } from 'vitest';
import { cssDeclarations, extractCssColors, extractHtmlColors, extractScriptColors, stripCssComments } from './code.ts';

describe('extractCssColors', () => {
  it('normalises every CSS color syntax to #RRGGBB, ordered by frequency', () => {
    const css = `
      :root { --brand: #5b3df5; }
      .btn { background: var(--brand); color: #FFF; border: 1px solid rgba(91, 61, 245, .5) }
      a { color: hsl(250, 90%, 60%); }
      a:hover { color: var(--brand) }
      .note { background-color: tomato; outline-color: #ff634780; }
      .x { color: transparent; background: inherit; fill: currentColor; }`;
    const colors = extractCssColors([css], {});
    expect(colors.slice(0, 3)).toEqual(['#5B3DF5', '#FF6347', '#FFFFFF']);
    expect(colors).toHaveLength(4); // + the hsl() link color
  });

  it('resolves a color that exists only in custom properties, also from computed root variables', () => {
    const css = '.hero { background: var(--accent); } .cta { color: var(--accent, #000); } .y { color: var(--missing, #123456) }';
    expect(extractCssColors([css], { '--accent': '#0ea5e9' })).toEqual(['#0EA5E9', '#123456']);
  });

  it('follows chains of variables without looping on cycles', () => {
    const css = ':root{--a:var(--b);--b:var(--c);--c:#e11d48;--loop:var(--loop)} p{color:var(--a);background:var(--loop)}';
    expect(extractCssColors([css], {})).toEqual(['#E11D48']);
  });

  it('reads named colors only in color properties, and ignores selectors and comments', () => {
    const css = '/* color: red */ #fade, .tan { font-family: Tomato, serif; color: navy } @media (min-width: 10px) { a { border-color: olive } }';
    expect(extractCssColors([css], {})).toEqual(['#000080', '#808000']);
  });

  it('ignores invalid hex lengths and ID-like words', () => {
    expect(extractCssColors(['a { color: #12345; background: #abcdefab }'], {})).toEqual(['#ABCDEF']);
  });

  it('stays linear on pathological input', () => {
    const evil = 'a'.repeat(300_000) + '/*'.repeat(50_000) + 'rgb('.repeat(50_000) + '#'.repeat(100_000);
    const started = process.hrtime.bigint();
    extractCssColors([evil, 'b{color:' + 'var(--x,'.repeat(20_000)], {});
    // A bound on work, not a timing assertion: quadratic behaviour here would take minutes.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(30);
  });
});

describe('cssDeclarations and comments', () => {
  it('splits a stylesheet into declarations', () => {
    expect(cssDeclarations('a{color:red;--X-y: blue}')).toEqual([
      { property: 'color', value: 'red' },
      { property: '--x-y', value: ' blue' },
    ]);
  });
  it('drops an unterminated comment to the end', () => {
    expect(stripCssComments('a{} /* open')).toBe('a{} ');
  });
});

describe('extractHtmlColors', () => {
  it('reads inline styles and presentational attributes, not <style> blocks', () => {
    const html = `<style>a{color:#111}</style><body bgcolor="#FFFFEE"><font color=red>Sale</font>
      <div style="background:#5B3DF5; color: rgb(255,255,255)">x</div><div style='color:#5b3df5'></div>
      <svg><path fill="#E11D48" stroke="none"/></svg><span style="color: var(--brand)">y</span></body>`;
    expect(extractHtmlColors(html, { '--brand': '#0ea5e9' })).toEqual(['#5B3DF5', '#FFFFEE', '#FF0000', '#FFFFFF', '#E11D48', '#0EA5E9']);
  });
});

describe('extractScriptColors', () => {
  it('reads hex and functional literals but not words', () => {
    const js = `const theme = { primary: "#5b3df5", danger: 'rgb(225, 29, 72)', text: "red" }; el.style.color = "#5B3DF5"; const id = "#main";`;
    expect(extractScriptColors([js])).toEqual(['#5B3DF5', '#E11D48']);
  });
});
