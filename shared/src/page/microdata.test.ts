import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { enclosingItemScope, isItemScope, itemType, microdataItemTypes, ownItemProps } from './microdata.ts';

describe('microdata and RDFa items', () => {
  const root = parse(`<div itemscope itemtype="https://schema.org/WebPage">
    <div id="org" itemscope itemtype="http://schema.org/LocalBusiness https://schema.org/Dentist">
      <span itemprop="name">Joe</span><div><a itemprop="email url" href="mailto:joe@x.example">x</a></div>
      <div id="addr" itemprop="address" itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="postalCode">95814</span></div>
    </div>
    <div id="rdfa" typeof="Organization"><span property="schema:name">Beispiel</span></div></div>`);
  const org = root.querySelector('#org')!;

  it('reads an item type (the first) and tells item elements by itemscope or typeof', () => {
    expect(itemType(org)).toBe('http://schema.org/LocalBusiness');
    expect(isItemScope(root.querySelector('#rdfa')!)).toBe(true);
    expect(isItemScope(root.querySelector('span')!)).toBe(false);
  });

  it("lists an item's own properties in document order, not those of nested items", () => {
    expect(ownItemProps(org).map((p) => p.name)).toEqual(['name', 'email', 'url', 'address']);
    expect(ownItemProps(root.querySelector('#rdfa')!).map((p) => p.name)).toEqual(['schema:name']);
  });

  it('finds the enclosing item', () => {
    expect(itemType(enclosingItemScope(org)!)).toBe('https://schema.org/WebPage');
    expect(enclosingItemScope(root.querySelector('#addr')!)).toBe(org);
    expect(enclosingItemScope(root.querySelector('[itemtype="https://schema.org/WebPage"]')!)).toBeNull();
  });

  it('scans item types out of the HTML text', () => {
    expect(microdataItemTypes('<div itemtype="https://schema.org/Dentist"><i itemtype=http://www.schema.org/Person>')).toEqual(['Dentist', 'Person']);
  });
});
