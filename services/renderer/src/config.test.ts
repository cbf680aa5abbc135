/** The browser the renderer runs when CHROMIUM_PATH is not set, and a CHROMIUM_PATH that is. */
import { describe, expect, it } from 'vitest';
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH, defaultChromiumPath, loadRendererConfig } from './config.ts';

describe('CHROMIUM_PATH', () => {
  it("defaults to Debian's headless shell where it is installed, else to the full Chromium", () => {
    expect(defaultChromiumPath((p) => p === HEADLESS_SHELL_PATH)).toBe(HEADLESS_SHELL_PATH);
    expect(defaultChromiumPath(() => false)).toBe(FULL_CHROMIUM_PATH);
  });

  it('takes the path it is given', () => {
    expect(loadRendererConfig({ CHROMIUM_PATH: '/opt/chrome/chrome' }).CHROMIUM_PATH).toBe('/opt/chrome/chrome');
  });
});
