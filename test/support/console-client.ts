/**
 * The review console as a browser without a browser: fetch with a cookie jar
 * and no redirects followed, for tests of sign-in and session rules that need
 * exact statuses, headers and many requests (the Chromium test,
 * test/e2e/console.browser.test.ts, covers what a real browser does).
 */
export interface ConsolePage {
  status: number;
  /** The Location of a redirect, or null. */
  location: string | null;
  retryAfter: string | null;
  text: string;
}

export class ConsoleClient {
  private readonly jar = new Map<string, string>();

  constructor(readonly base: string) {}

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** Carries a cookie over from another client (the same browser reaching another replica). */
  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  get(path: string): Promise<ConsolePage> {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string>): Promise<ConsolePage> {
    return this.request('POST', path, new URLSearchParams(form).toString());
  }

  /** The _csrf value of the first form on a page. */
  static csrfOf(page: ConsolePage): string {
    const m = /name="_csrf" value="([^"]*)"/.exec(page.text);
    if (!m) throw new Error(`no _csrf field on the page (status ${page.status})`);
    return m[1]!;
  }

  /** Opens the sign-in form and submits a credential with its token; the answer to the POST. */
  async signIn(credential: string): Promise<ConsolePage> {
    const form = await this.get('/login');
    return this.post('/login', { _csrf: ConsoleClient.csrfOf(form), credential });
  }

  private async request(method: string, path: string, body?: string): Promise<ConsolePage> {
    const headers: Record<string, string> = {};
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${this.base}${path}`, { method, headers, body, redirect: 'manual' });
    for (const set of res.headers.getSetCookie()) this.store(set);
    return { status: res.status, location: res.headers.get('location'), retryAfter: res.headers.get('retry-after'), text: await res.text() };
  }

  private store(setCookie: string): void {
    const [pair, ...attributes] = setCookie.split(';');
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at).trim();
    const value = pair!.slice(at + 1).trim();
    const attr = (n: string) => attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith(`${n}=`))?.slice(n.length + 1);
    const maxAge = attr('max-age');
    const expires = attr('expires');
    const gone = (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (gone) this.jar.delete(name);
    else this.jar.set(name, value);
  }
}
