import { describe, expect, it } from 'vitest';
import { dawnProductPage, type DawnVariant } from './fixtures/shop-markup';
import { amountOf, checkSourceUrl, isPublicAddress, jsonLdBlocks, parseDsldLabel, parseOfferPage, quoteLeadingZeroNumbers, retryAfterMs, resolveChecked } from '@evidence-record/sources';

describe('isPublicAddress', () => {
  it('admits global unicast only', () => {
    for (const ip of ['8.8.8.8', '151.101.1.69', '2606:4700:4700::1111']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '224.0.0.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '64:ff9b::a00:1', '2002:a00:1::1', 'not-an-ip',
    ]) expect(isPublicAddress(ip), ip).toBe(false);
  });
  it('admits IPv6 only inside global unicast (2000::/3): IPv4-compatible, mapped and unassigned blocks are refused', () => {
    // ::/96, IPv4-compatible: ipaddr.js has no name for it and calls it unicast.
    for (const ip of ['::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::10.0.0.1', '::8.8.8.8']) expect(isPublicAddress(ip), ip).toBe(false);
    // Mapped IPv4 is refused whatever it carries; so is everything outside 2000::/3.
    for (const ip of ['::ffff:8.8.8.8', '100::1', '4000::1', '8000::1', 'fec0::1', '5f00::1', '1::1']) expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ['2606:4700:4700::1111', '2a00:1450:4001:80e::200e', '3fff:ffff::1']) expect(isPublicAddress(ip), ip).toBe(true);
  });
});

describe('source URLs', () => {
  const strict = { allowHosts: [], allowLocalhost: false };
  const local = { allowHosts: [], allowLocalhost: true };
  const resolveTo = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];
  it('refuses schemes, credentials and private literals; admits http://127.0.0.1 only in the local stack', async () => {
    await expect(checkSourceUrl('ftp://example.com/x', strict)).rejects.toThrow(/only http and https/);
    await expect(checkSourceUrl('https://user:pw@example.com/x', strict, resolveTo('93.184.216.34'))).rejects.toThrow(/no credentials/);
    await expect(checkSourceUrl('http://127.0.0.1:9000/x', strict)).rejects.toThrow(/not a public address/);
    await expect(checkSourceUrl('http://127.0.0.1:9000/x', local)).resolves.toBeInstanceOf(URL);
    await expect(checkSourceUrl('https://127.0.0.1:9000/x', local)).rejects.toThrow(/not a public address/);
    await expect(checkSourceUrl('http://10.0.0.5/x', local)).rejects.toThrow(/not a public address/);
    await expect(checkSourceUrl('http://169.254.169.254/x', local)).rejects.toThrow(/not a public address/);
    await expect(checkSourceUrl('http://[::ffff:169.254.169.254]/x', local)).rejects.toThrow(/not a public address/);
    await expect(checkSourceUrl('http://[::127.0.0.1]/x', local)).rejects.toThrow(/::7f00:1 is not a public address/);
    await expect(checkSourceUrl('http://shop.example/x', strict, resolveTo('::7f00:1'))).rejects.toThrow(/resolves to ::7f00:1/);
    await expect(checkSourceUrl('http://shop.example/x', strict, resolveTo('93.184.216.34'))).resolves.toBeInstanceOf(URL);
    await expect(checkSourceUrl('http://shop.example/x', local, resolveTo('10.0.0.7'))).rejects.toThrow(/resolves to 10\.0\.0\.7/);
  });
  it('refuses a name when any of its addresses is private, and admits allow-listed names', async () => {
    const mixed = async () => [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
    await expect(resolveChecked('shop.example', strict, mixed)).rejects.toThrow(/127\.0\.0\.1/);
    await expect(resolveChecked('mirror.internal.example', { allowHosts: ['.internal.example'], allowLocalhost: false }, mixed)).resolves.toHaveLength(2);
    // The allow-list admits a named host whatever it resolves to, IPv4-compatible IPv6 included.
    const compatible = async () => [{ address: '::7f00:1', family: 6 }];
    await expect(resolveChecked('mirror.internal.example', strict, compatible)).rejects.toThrow(/::7f00:1/);
    await expect(resolveChecked('mirror.internal.example', { allowHosts: ['.internal.example'], allowLocalhost: false }, compatible)).resolves.toHaveLength(1);
    await expect(resolveChecked('nowhere.example', strict, async () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTFOUND' })))).rejects.toThrow(/does not resolve/);
  });
});

describe('DSLD labels', () => {
  // The shape of a real label (trimmed from a public fixture; brand and values changed).
  const real = {
    id: 19279,
    fullName: 'Magnesium',
    brandName: 'Example Sport',
    servingsPerContainer: '30',
    servingSizes: [{ order: 1, minQuantity: 3, maxQuantity: 3, unit: 'Capsule(s)' }],
    ingredientRows: [
      {
        order: 1,
        name: 'Magnesium',
        ingredientGroup: 'Magnesium',
        quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 400, unit: 'mg', dailyValueTargetGroup: [{ operator: '=', percent: 100 }] }],
        forms: [{ name: 'Magnesium Citrate' }],
        nestedRows: [{ order: 1, name: 'Malic Acid', quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 222, unit: 'mg' }], forms: [], nestedRows: [] }],
      },
      { order: 2, name: 'Vitamin B6', quantity: [{ servingSizeOrder: 1, operator: '<', quantity: 2, unit: 'mg' }] },
    ],
    offMarket: 0,
  };
  it('keeps every row in label order, nested rows under a plain ingredient included, with operators and the serving', () => {
    const p = parseDsldLabel(JSON.stringify(real));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.reading.ingredients.map(({ declared_name, amount, unit, operator, blend }) => ({ declared_name, amount, unit, operator, blend }))).toEqual([
      { declared_name: 'Magnesium', amount: 400, unit: 'mg', operator: null, blend: null },
      { declared_name: 'Malic Acid', amount: 222, unit: 'mg', operator: null, blend: null },
      { declared_name: 'Vitamin B6', amount: 2, unit: 'mg', operator: '<', blend: null },
    ]);
    expect(p.reading.serving).toEqual({ size: 3, unit: 'Capsule(s)', servings_per_container: 30, description: null });
    expect(p.reading.facts.off_market).toBe(false);
  });
  it('reads NP, empty and missing quantities as undisclosed, and a declared 0 as zero', () => {
    expect(amountOf([{ servingSizeOrder: 1, operator: '=', quantity: 0, unit: 'NP' }])).toEqual({ amount: null, unit: null, operator: null });
    expect(amountOf([])).toEqual({ amount: null, unit: null, operator: null });
    expect(amountOf(undefined)).toEqual({ amount: null, unit: null, operator: null });
    expect(amountOf([{ servingSizeOrder: 1, operator: '=', quantity: null, unit: 'mg' }])).toEqual({ amount: null, unit: null, operator: null });
    expect(amountOf([{ servingSizeOrder: 1, operator: '=', quantity: 5, unit: null }])).toEqual({ amount: null, unit: null, operator: null });
    expect(amountOf([{ servingSizeOrder: 1, operator: '=', quantity: 0, unit: 'mg' }])).toEqual({ amount: 0, unit: 'mg', operator: null });
    expect(amountOf([{ servingSizeOrder: 1, operator: '=', quantity: 0, unit: 'Gram(s)' }])).toEqual({ amount: 0, unit: 'g', operator: null });
  });
  it('is empty without ingredient rows and unreadable when malformed or not a label', () => {
    expect(parseDsldLabel(JSON.stringify({ id: 5, ingredientRows: [] }))).toMatchObject({ ok: false, outcome: 'empty' });
    expect(parseDsldLabel('{"id": 5, ')).toMatchObject({ ok: false, outcome: 'unreadable', reason: 'malformed JSON' });
    expect(parseDsldLabel(JSON.stringify({ name: 'x' }))).toMatchObject({ ok: false, outcome: 'unreadable' });
  });
});

describe('offer pages', () => {
  const page = (jsonld: unknown) => `<html><head><script type="application/ld+json">${JSON.stringify(jsonld)}</script></head><body><script>var x = "<script type='application/ld+json'>{}";</script></body></html>`;
  it('maps ListPrice and StrikethroughPrice to list, the lower selling price beside them to promotional, a lone price to unspecified', () => {
    const marked = parseOfferPage(page({ '@context': 'https://schema.org', '@type': 'Product', offers: { '@type': 'Offer', price: '29.99', priceCurrency: 'USD', priceSpecification: { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: 39.99, priceCurrency: 'USD' } } }));
    expect(marked).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'list' }, { price_cents: 2999, basis: 'promotional' }] } });
    const lone = parseOfferPage(page({ '@graph': [{ '@type': 'WebPage' }, { '@type': ['Product'], offers: [{ '@type': 'Offer', price: 19.5, priceCurrency: 'usd' }] }] }));
    expect(lone).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 1950, basis: 'unspecified' }] } });
    const aggregate = parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'AggregateOffer', lowPrice: '24.00', priceCurrency: 'USD' } }));
    expect(aggregate).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 2400, basis: 'unspecified' }] } });
  });
  // Composed after `../shared/sources.md`'s description of a large supplement retailer's markup (not a copy of a page).
  it("reads a retailer's markup whose offer price is null and whose prices sit in a priceSpecification list, and a bare price beside an empty list", () => {
    const listed = parseOfferPage(
      page({
        '@type': 'Product',
        aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.6', reviewCount: 812 },
        offers: {
          '@type': 'Offer',
          price: null,
          priceCurrency: null,
          availability: 'https://schema.org/InStock',
          priceSpecification: [
            { '@type': 'UnitPriceSpecification', price: '39.99', priceCurrency: 'USD' },
            { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: '49.99', priceCurrency: 'USD' },
          ],
        },
      }),
    );
    expect(listed).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 4999, basis: 'list' }, { price_cents: 3999, basis: 'promotional' }], availability: 'InStock' } });
    const bare = parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'Offer', price: '44.99', priceCurrency: 'USD', priceSpecification: [] } }));
    expect(bare).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 4499, basis: 'unspecified' }] } });
  });
  // WooCommerce's own product markup, composed from its generator (not a copy of a page): repository
  // woocommerce/woocommerce, plugins/woocommerce/includes/class-wc-structured-data.php at commit
  // 019bb47e4e6aaf10c58b1e5b1493f93b843b86f6 (generate_product_data, get_structured_data, output_structured_data).
  // The one block sits in the page's footer: a @graph of the breadcrumb and the product, each with its @context; the
  // offer states no price or currency of its own, only a priceSpecification list; JSON_HEX_TAG, then wc_esc_json,
  // which writes & as &amp; inside the script.
  describe("WooCommerce's product markup", () => {
    const spec = (price: string, priceType?: string) => ({
      '@type': 'UnitPriceSpecification',
      ...(priceType ? { priceType: `https://schema.org/${priceType}` } : {}),
      price,
      priceCurrency: 'USD',
      valueAddedTaxIncluded: false,
      validThrough: '2027-12-31',
    });
    const seller = { '@type': 'Organization', name: 'Shop & Co', url: 'https://shop.example' };
    const woo = (offer: object) => {
      const product = {
        '@context': 'https://schema.org/',
        '@type': 'Product',
        '@id': 'https://shop.example/product/pump-formula/#product',
        name: 'Pump & Focus Pre-Workout',
        url: 'https://shop.example/product/pump-formula/',
        description: '',
        sku: 1042,
        offers: [{ ...offer, priceValidUntil: '2027-12-31', availability: 'https://schema.org/InStock', url: 'https://shop.example/product/pump-formula/', seller }],
      };
      const breadcrumb = { '@context': 'https://schema.org/', '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 1, item: { name: 'Home', '@id': 'https://shop.example' } }] };
      const json = JSON.stringify({ '@context': 'https://schema.org/', '@graph': [breadcrumb, product] }).replaceAll('&', '&amp;');
      return `<html><body><main>…</main><script type="application/ld+json">${json}</script></body></html>`;
    };
    it('reads a simple product at its regular price as an unspecified price, and on sale as list and promotional', () => {
      expect(parseOfferPage(woo({ '@type': 'Offer', priceSpecification: [spec('44.99')] }))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 4499, basis: 'unspecified' }], availability: 'InStock' } });
      // On sale: the sale price first and unmarked, the regular price marked ListPrice (woocommerce issue 55043).
      expect(parseOfferPage(woo({ '@type': 'Offer', priceSpecification: [spec('34.99'), spec('44.99', 'ListPrice')] }))).toMatchObject({
        ok: true,
        reading: { prices: [{ price_cents: 4499, basis: 'list' }, { price_cents: 3499, basis: 'promotional' }] },
      });
    });
    it('reads a product sold in several sizes at one price as that price, and never a range of sizes at different prices', () => {
      expect(parseOfferPage(woo({ '@type': 'Offer', priceSpecification: [spec('39.00')] }))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3900, basis: 'unspecified' }] } });
      const range = { '@type': 'AggregateOffer', lowPrice: '39.00', highPrice: '69.00', offerCount: 3, priceCurrency: 'USD' };
      const unreadable = { ok: false, outcome: 'unreadable', reason: 'the page gives only a price range, $39.00 to $69.00 over 3 offers, not the price of any one offer' };
      expect(parseOfferPage(woo(range))).toEqual(unreadable);
      // On sale, the range carries the lowest sale price marked SalePrice: still not one size's price.
      expect(parseOfferPage(woo({ ...range, priceSpecification: [spec('29.00', 'SalePrice')] }))).toEqual(unreadable);
      // The product's sku (here its numeric id) names the product, not a size: naming it reads the same range.
      expect(parseOfferPage(woo(range), { variant: '1042' })).toEqual(unreadable);
    });
  });
  // Shopify's reference theme from 2022-04-26 to 2024-05-30 (fixtures/shop-markup.ts says where it is composed from):
  // the barcode is printed bare, so a UPC-A that starts with 0, as most US ones do (real label 1179's is
  // 0 48107 09833 9), is not valid JSON.
  describe("Shopify Dawn's product markup of 2022-2024", () => {
    const variant = (sku: string, barcode: string, price: string): DawnVariant => ({ sku, barcode, price });
    const dawn = (...variants: DawnVariant[]) => dawnProductPage(variants);
    const sizes = dawn(variant('PW-30', '048107098339', '39.99'), variant('PW-60', '048107098346', '64.99'));
    it('reads the block whose barcodes are bare numbers with a leading zero, and tells its sizes apart by them', () => {
      const scriptText = sizes.slice(sizes.indexOf('>', sizes.indexOf('ld+json')) + 1, sizes.indexOf('</script>'));
      expect(() => JSON.parse(scriptText)).toThrow();
      expect(parseOfferPage(dawn(variant('PW-30', '048107098339', '39.99')))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }], availability: 'InStock' } });
      expect(parseOfferPage(sizes)).toMatchObject({ ok: false, outcome: 'unreadable', reason: expect.stringMatching(/^the page offers 2 variants at different prices: PW-30 \(\$39\.99 unspecified\); PW-60 \(\$64\.99 unspecified\)/) });
      // The label's UPC (real label 1179's, as the monitor passes it: digits only) picks the size; a GTIN named
      // without its leading zero does too.
      expect(parseOfferPage(sizes, { labelGtins: ['048107098339'] })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999 }] } });
      expect(parseOfferPage(sizes, { variant: '48107098346' })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 6499 }] } });
    });
    it('quotes only such numbers, outside strings, and leaves anything else malformed as it is', () => {
      expect(quoteLeadingZeroNumbers('{"a": 0123, "b": [007,0.5, 10, 0], "c": "x\\" 0123", "d": {"e":0123}}')).toBe('{"a": "0123", "b": ["007",0.5, 10, 0], "c": "x\\" 0123", "d": {"e":"0123"}}');
      for (const other of ['{"a": -0123}', '{"a": 0123.5}', '{"a": 0123x}', '{"a" 0123}', '{"a": 39.99,}']) expect(quoteLeadingZeroNumbers(other), other).toBe(other);
      expect(parseOfferPage(`<script type="application/ld+json">{"@type":"Product","offers":{"@type":"Offer","price":39.99,"priceCurrency":"USD",}}</script>`)).toMatchObject({ ok: false, outcome: 'empty', reason: 'the JSON-LD on the page is malformed' });
    });
  });
  it('reads a block inside the comment or CDATA guards templates still write, and a script typed with a charset', () => {
    const json = JSON.stringify({ '@type': 'Product', offers: { '@type': 'Offer', price: '39.99', priceCurrency: 'USD' } });
    const read = { ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }] } };
    for (const [open, close] of [['<!--', '-->'], ['//<![CDATA[', '//]]>'], ['/*<![CDATA[*/', '/*]]>*/'], ['<![CDATA[', ']]>'], ['', '']]) {
      expect(parseOfferPage(`<script type="application/ld+json">${open}\n  ${json}\n  ${close}</script>`), open).toMatchObject(read);
    }
    expect(parseOfferPage(`<script type="application/ld+json; charset=utf-8">${json}</script>`)).toMatchObject(read);
    expect(parseOfferPage(`<script type="application/json">${json}</script>`)).toMatchObject({ ok: false, outcome: 'empty', reason: 'no JSON-LD on the page' });
    // A guard opened and never closed is not a guard: the block stays malformed.
    expect(parseOfferPage(`<script type="application/ld+json">//<![CDATA[ ${json}</script>`)).toMatchObject({ ok: false, outcome: 'empty', reason: 'the JSON-LD on the page is malformed' });
  });
  // BigCommerce's reference theme, composed from its template (not a copy of a page): repository bigcommerce/cornerstone,
  // templates/components/products/schema.html at commit 9bcd8f24ed3ee6cea6033edfde73ccb2858a857e. A product whose
  // variants are priced differently gets an Offer with minPrice and maxPrice and no price.
  it("reads BigCommerce Cornerstone's offer, and never its range of variant prices as a price", () => {
    const cornerstone = (prices: Record<string, string>) =>
      page({
        '@context': 'https://schema.org/',
        '@type': 'Product',
        name: 'Pump Pre-Workout',
        sku: 'PW',
        gtin12: '048107098339',
        url: 'https://shop.example/pump/',
        offers: { '@type': 'Offer', priceCurrency: 'USD', ...prices, itemCondition: 'https://schema.org/NewCondition', availability: 'https://schema.org/InStock', url: 'https://shop.example/pump/', priceValidUntil: '2027-11-27' },
      });
    expect(parseOfferPage(cornerstone({ price: '39.99' }))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }], availability: 'InStock' } });
    expect(parseOfferPage(cornerstone({ minPrice: '39.99', maxPrice: '64.99' }))).toEqual({ ok: false, outcome: 'unreadable', reason: 'the page gives only a price range, $39.99 to $64.99, not the price of any one offer' });
    expect(parseOfferPage(cornerstone({ minPrice: '39.99', maxPrice: '39.99' }))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }] } });
  });
  // Salesforce's reference storefront (SFRA), composed from its source (not a copy of a page): repository
  // muhammadmuneeb198/storefront-reference-architecture (a copy of SalesforceCommerceCloud/storefront-reference-architecture)
  // at commit 2bdd2322b0c5f45545b09e4b8ee51e57f9ad9eeb: cartridges/app_storefront_base/cartridge/scripts/helpers/
  // structuredDataHelper.js builds the object, templates/default/components/schema.isml prints JSON.stringify of it,
  // and models/price/default.js and range.js are the price models it puts in a range's lowprice and highprice.
  // scripts/factories/price.js makes a range only of a master product whose variants' sale prices differ.
  it("reads SFRA's offer, and recognises its lower-case range of price models as a range, never a price", () => {
    const priceModel = (decimalPrice: string) => ({ sales: { value: Number(decimalPrice), currency: 'USD', formatted: `$${decimalPrice}`, decimalPrice }, list: null });
    const sfra = (offers: object) =>
      `<html><head><script type="application/ld+json">\n        ${JSON.stringify({
        '@context': 'http://schema.org/',
        '@type': 'Product',
        name: 'Pump Pre-Workout',
        description: 'Pre-workout powder.',
        mpn: 'PW-MASTER',
        sku: 'PW-MASTER',
        brand: { '@type': 'Thing', name: 'Example' },
        image: ['https://shop.example/on/demandware.static/-/Sites-catalog/default/pw.jpg'],
        offers: { url: '/on/demandware.store/Sites-Shop-Site/en_US/Product-Show?pid=PW-MASTER', ...offers },
      })}\n    </script></head></html>`;
    // One price: the sale price (the helper leaves the list price out of the markup).
    expect(parseOfferPage(sfra({ '@type': 'Offer', priceCurrency: 'USD', price: '39.99', availability: 'http://schema.org/InStock' }))).toMatchObject({
      ok: true,
      reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }], availability: 'InStock' },
    });
    // A range: RangePrice has no currency of its own, so priceCurrency is undefined and left out by JSON.stringify.
    const range = { '@type': 'AggregateOffer', priceCurrency: undefined, lowprice: priceModel('29.99'), highprice: priceModel('49.99'), availability: 'http://schema.org/InStock' };
    expect(parseOfferPage(sfra(range))).toEqual({ ok: false, outcome: 'unreadable', reason: 'the page gives only a price range, $29.99 to $49.99, not the price of any one offer' });
    // Lower-case ends only ever name a range: one alone is not read as a price.
    expect(parseOfferPage(sfra({ '@type': 'AggregateOffer', priceCurrency: 'USD', lowprice: priceModel('29.99') }))).toMatchObject({ ok: false, outcome: 'empty', reason: 'no offer on the page states a price' });
  });
  it("reads the output Shopify documents for its structured_data filter, as it is printed", () => {
    // Real output, unedited: the example of https://shopify.dev/docs/api/liquid/filters/structured_data (the
    // filter Dawn uses since 2024-05-30), a store priced in Canadian dollars: slashes escaped, an @id on the product
    // and the offer, the variant's address as the offer's url.
    const documented = String.raw`{"@context":"http:\/\/schema.org\/","@id":"\/products\/crocodile-tears#product","@type":"Product","brand":{"@type":"Brand","name":"Polina's Potent Potions"},"category":"","description":"","image":"https:\/\/polinas-potent-potions.myshopify.com\/cdn\/shop\/products\/amber-beard-oil-bottle.jpg?v=1650642958\u0026width=1920","name":"Crocodile tears","offers":{"@id":"\/products\/crocodile-tears?variant=39888242344001#offer","@type":"Offer","availability":"http:\/\/schema.org\/OutOfStock","price":"56.00","priceCurrency":"CAD","url":"https:\/\/polinas-potent-potions.myshopify.com\/products\/crocodile-tears?variant=39888242344001"},"url":"https:\/\/polinas-potent-potions.myshopify.com\/products\/crocodile-tears"}`;
    const html = `<script type="application/ld+json">\n  ${documented}\n</script>`;
    expect(parseOfferPage(html)).toEqual({ ok: false, outcome: 'empty', reason: 'the offer is priced in CAD, not USD' });
    // What it was read as, beside the currency: the offer and its price are found where Shopify puts them.
    const [block] = jsonLdBlocks(html).blocks as Array<{ offers: { price: string; availability: string } }>;
    expect(block?.offers).toMatchObject({ price: '56.00', availability: 'http://schema.org/OutOfStock' });
  });
  it('reads a SalePrice-marked spec as the selling price when the offer states none, and never an MSRP, SRP, MAP or invoice price', () => {
    const spec = (priceType: string | null, price: string) => ({ '@type': 'UnitPriceSpecification', ...(priceType ? { priceType: `https://schema.org/${priceType}` } : {}), price, priceCurrency: 'USD' });
    const offer = (price: string | null, ...specs: object[]) => page({ '@type': 'Product', offers: { '@type': 'Offer', price, priceCurrency: price === null ? null : 'USD', priceSpecification: specs } });
    expect(parseOfferPage(offer(null, spec('SalePrice', '34.99'), spec('StrikethroughPrice', '44.99')))).toMatchObject({
      ok: true,
      reading: { prices: [{ price_cents: 4499, basis: 'list' }, { price_cents: 3499, basis: 'promotional' }] },
    });
    expect(parseOfferPage(offer(null, spec('SalePrice', '34.99')))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3499, basis: 'promotional' }] } });
    for (const other of ['MSRP', 'SRP', 'MinimumAdvertisedPrice', 'InvoicePrice']) {
      expect(parseOfferPage(offer('39.99', spec(other, '59.99'))), other).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }] } });
      expect(parseOfferPage(offer(null, spec(other, '59.99'))), other).toMatchObject({ ok: false, outcome: 'empty', reason: 'no offer on the page states a price' });
    }
  });
  it('reads a price written with a dollar sign or thousands commas, never a decimal comma or other text', () => {
    const priced = (price: unknown, priceCurrency = 'USD') => parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'Offer', price, priceCurrency } }));
    for (const [price, cents] of [['$39.99', 3999], ['$ 39.99', 3999], ['1,049.00', 104900], [' 44.5 ', 4450], [39.99, 3999]] as const) {
      expect(priced(price), String(price)).toMatchObject({ ok: true, reading: { prices: [{ price_cents: cents, basis: 'unspecified' }] } });
    }
    for (const price of ['39,99', '$39.99 USD', 'US$39.99', '39.99$', '1,04.00', '$', 'free', '-5']) {
      expect(priced(price), price).toMatchObject({ ok: false, outcome: 'empty', reason: 'no offer on the page states a price' });
    }
    // A dollar sign says nothing about the currency: the offer's priceCurrency still decides.
    expect(priced('$39.99', 'CAD')).toMatchObject({ ok: false, outcome: 'empty', reason: 'the offer is priced in CAD, not USD' });
  });
  it('does not read a unit price (per kilogram, per serving) as the price of the container', () => {
    const perKilogram = { '@type': 'UnitPriceSpecification', price: '88.86', priceCurrency: 'USD', referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'KGM' } };
    const perServing = { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: '1.67', priceCurrency: 'USD', referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitText: 'serving', unitCode: 'XSV' } };
    const listed = parseOfferPage(
      page({ '@type': 'Product', offers: { '@type': 'Offer', price: null, priceCurrency: null, priceSpecification: [perKilogram, perServing, { '@type': 'UnitPriceSpecification', price: '39.99', priceCurrency: 'USD' }, { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: '49.99', priceCurrency: 'USD' }] } }),
    );
    expect(listed).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 4999, basis: 'list' }, { price_cents: 3999, basis: 'promotional' }] } });
    const sold = parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'Offer', price: '44.99', priceCurrency: 'USD', priceSpecification: [perKilogram, perServing] } }));
    expect(sold).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 4499, basis: 'unspecified' }] } });
    const perItem = { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: '54.99', priceCurrency: 'USD', referenceQuantity: { value: 1, unitCode: 'C62' } };
    expect(parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'Offer', price: '44.99', priceCurrency: 'USD', priceSpecification: [perItem] } }))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 5499, basis: 'list' }, { price_cents: 4499, basis: 'promotional' }] } });
    expect(parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'Offer', price: null, priceSpecification: [perKilogram] } }))).toMatchObject({ ok: false, outcome: 'empty', reason: 'no offer on the page states a price' });
  });
  // Composed: a ProductGroup of sizes and flavours as schema.org describes one (not a copy of a real page).
  describe('a page of several variants', () => {
    const offer = (price: string, list?: string) => ({ '@type': 'Offer', price, priceCurrency: 'USD', ...(list ? { priceSpecification: { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: list, priceCurrency: 'USD' } } : {}) });
    const group = (...variants: Array<Record<string, unknown>>) => page({ '@type': 'ProductGroup', productGroupID: 'pw', hasVariant: variants.map((v) => ({ '@type': 'Product', ...v })) });
    const sizes = group({ sku: 'PW-30', gtin12: '012345678905', offers: offer('39.99') }, { sku: 'PW-60', offers: offer('59.99', '64.99') });

    it('never guesses between offers at different prices: unreadable, naming the variants', () => {
      const r = parseOfferPage(sizes);
      expect(r).toMatchObject({ ok: false, outcome: 'unreadable' });
      expect(!r.ok && r.reason).toBe('the page offers 2 variants at different prices: PW-30 ($39.99 unspecified); PW-60 ($64.99 list, $59.99 promotional); name the one this source is with --variant');
      // Asked without the label's UPCs, it asks for them (the monitor looks them up only then); given none, it is final.
      expect(r).toMatchObject({ needsLabel: true });
      expect(parseOfferPage(sizes, { labelGtins: [] })).not.toHaveProperty('needsLabel');
      expect(parseOfferPage(sizes, { variant: 'PW' })).not.toHaveProperty('needsLabel');
    });
    it("reads, for a source naming no variant, the one whose GTIN is the UPC its product's DSLD label declares", () => {
      // Real label 1179's upcSku is "0 48107 09833 9"; the page (composed) gives that size's GTIN-13 zero-padded.
      const labelled = group({ sku: 'RV-40', gtin13: '0048107098339', offers: offer('39.99', '44.99') }, { sku: 'RV-80', gtin13: '0048107098346', offers: offer('69.99') });
      expect(parseOfferPage(labelled, { labelGtins: ['048107098339'] })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 4499, basis: 'list' }, { price_cents: 3999, basis: 'promotional' }] } });
      // A variant the source names wins over the label's UPC; a UPC the page does not offer leaves the page ambiguous.
      expect(parseOfferPage(labelled, { variant: 'RV-80', labelGtins: ['048107098339'] })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 6999 }] } });
      expect(parseOfferPage(labelled, { labelGtins: ['012345678905'] })).toMatchObject({ ok: false, outcome: 'unreadable', reason: expect.stringMatching(/^the page offers 2 variants at different prices/) });
    });
    it('never reads a price range (an AggregateOffer summarising several) as a price', () => {
      const range = parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'AggregateOffer', lowPrice: '39.99', highPrice: '64.99', offerCount: 2, price: '39.99', priceCurrency: 'USD' } }));
      expect(range).toEqual({ ok: false, outcome: 'unreadable', reason: 'the page gives only a price range, $39.99 to $64.99 over 2 offers, not the price of any one offer' });
      expect(parseOfferPage(page({ '@type': 'Product', offers: { '@type': 'AggregateOffer', lowPrice: '39.99', highPrice: '39.99', priceCurrency: 'USD' } }))).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }] } });
      // With its offers listed, the offers are read, by the variant rule.
      const listed = { '@type': 'AggregateOffer', lowPrice: '39.99', highPrice: '64.99', offers: [{ '@type': 'Offer', sku: 'A', price: '39.99', priceCurrency: 'USD' }, { '@type': 'Offer', sku: 'B', price: '64.99', priceCurrency: 'USD' }] };
      expect(parseOfferPage(page({ '@type': 'Product', offers: listed }), { variant: 'b' })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 6499, basis: 'unspecified' }] } });
    });
    it('reads the variant a source names, by sku, GTIN (with or without leading zeros) or in another case', () => {
      expect(parseOfferPage(sizes, { variant: 'PW-60' })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 6499, basis: 'list' }, { price_cents: 5999, basis: 'promotional' }] } });
      expect(parseOfferPage(sizes, { variant: 'pw-30' })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }] } });
      expect(parseOfferPage(sizes, { variant: '0012345678905' })).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 3999, basis: 'unspecified' }] } });
      expect(parseOfferPage(sizes, { variant: 'PW-90' })).toEqual({ ok: false, outcome: 'empty', reason: 'no offer on the page is variant PW-90' });
    });
    it("reads flavours offered at one price as the page's one price", () => {
      const flavours = group({ sku: 'PW-30-LEMON', offers: offer('39.99', '44.99') }, { sku: 'PW-30-BERRY', offers: offer('39.99', '44.99') });
      expect(parseOfferPage(flavours)).toMatchObject({ ok: true, reading: { prices: [{ price_cents: 4499, basis: 'list' }, { price_cents: 3999, basis: 'promotional' }] } });
      // A product's offer list of one price per seller is the same rule.
      const sellers = page({ '@type': 'Product', sku: 'PW-30', offers: [offer('39.99'), offer('41.50')] });
      expect(parseOfferPage(sellers)).toMatchObject({ ok: false, outcome: 'unreadable', reason: expect.stringMatching(/^the page offers 2 variants at different prices: PW-30 \(\$39.99 unspecified\); PW-30 \(\$41.50 unspecified\)/) });
      expect(parseOfferPage(sellers, { variant: 'PW-30' })).toMatchObject({ ok: false, outcome: 'unreadable', reason: expect.stringMatching(/variant PW-30 names more than one of them$/) });
    });
  });
  it('is empty without JSON-LD, without a Product offer, or in another currency', () => {
    expect(parseOfferPage('<html><body>$39.99</body></html>')).toMatchObject({ ok: false, outcome: 'empty', reason: 'no JSON-LD on the page' });
    expect(parseOfferPage(page({ '@type': 'Organization', name: 'x' }))).toMatchObject({ ok: false, outcome: 'empty' });
    expect(parseOfferPage(page({ '@type': 'Product', offers: { price: '30.00', priceCurrency: 'CAD' } }))).toMatchObject({ ok: false, outcome: 'empty', reason: expect.stringMatching(/CAD/) });
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, capped at a day', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('9999999', now)).toBe(86_400_000);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});
