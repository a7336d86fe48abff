import { describe, expect, it } from 'vitest';
import { confirmPage, donePage, refusalPage } from '../src/unsubscribe/page';
import { maskEmail } from '../src/unsubscribe/route';

describe('the unsubscribe pages', () => {
  const target = { product: 'Brand <script>alert(1)</script> & "Pre"', productId: 'prd_abcdefghijkl', recipient: 'ab***@example.test' };
  it('escape every Record value', () => {
    for (const html of [confirmPage(target, '/unsubscribe?token=u1.a.b'), donePage(target, true), donePage(target, false)]) {
      expect(html).not.toContain('<script>');
      expect(html).toContain('Brand &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Pre&quot;');
    }
  });
  it('post the RFC 8058 one-click body to the same address', () => {
    const html = confirmPage(target, '/unsubscribe?token=u1.x&y');
    expect(html).toContain('<form method="post" action="/unsubscribe?token=u1.x&amp;y">');
    expect(html).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
  });
  it('say why a link is refused, and say nothing of the request', () => {
    expect(refusalPage('expired')).toContain('This link has expired');
    expect(refusalPage('invalid')).toContain('data-reason="invalid"');
  });
  it('mask the address enough to recognise, not to harvest', () => {
    expect(maskEmail('alice@example.test')).toBe('al***@example.test');
    expect(maskEmail('a@x.test')).toBe('a***@x.test');
    expect(maskEmail('nonsense')).toBe('***');
  });
});
