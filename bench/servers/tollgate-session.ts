/**
 * Logs a user in through Tollgate's own login form, as a browser would, and returns the session
 * cookie with its CSRF token (read from the approval page the session then sees).
 */
export async function logIn(
  baseUrl: string,
  email: string,
  password: string,
  authorizePath: string,
): Promise<{ cookie: string; csrfToken: string }> {
  const jar = new Map<string, string>();
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader(jar), origin: baseUrl },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return { status: response.status, body: await response.text() };
  };

  const form = await send('/login');
  const loginToken = hiddenToken(form.body, '/login');
  const login = await send('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, _token: loginToken }).toString(),
  });
  if (login.status !== 302) throw new Error(`login answered ${login.status}: ${login.body.slice(0, 200)}`);
  const page = await send(authorizePath);
  if (page.status !== 200 && page.status !== 302) {
    throw new Error(`GET ${authorizePath} answered ${page.status}: ${page.body.slice(0, 200)}`);
  }
  return {
    cookie: cookieHeader(jar),
    csrfToken: page.status === 200 ? hiddenToken(page.body, authorizePath) : '',
  };
}

function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

function hiddenToken(html: string, where: string): string {
  const token = /name="_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no _token field on ${where}`);
  return token;
}
