import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from './snapshot-from-html.ts';

describe('the offline snapshot of a saved page', () => {
  it('reads text as a browser does: a source line break between inline nodes is a space, blocks and <br> break lines', () => {
    const s = snapshotFromHtml(
      '<html><body><p>you can take the matter to the body, at\n<a href="mailto:x@example.org">x@example.org</a>.</p><div>12 Main St<br>Springfield</div></body></html>',
      'https://www.example.com/',
    );
    expect(s.text.visible).toBe('you can take the matter to the body, at x@example.org.\n12 Main St\nSpringfield');
  });
});
