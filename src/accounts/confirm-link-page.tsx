import type { FC } from 'hono/jsx';
import { CsrfField } from '../views/components.js';

export interface ConfirmLinkProps {
  title: string;
  /** What confirming does, in a sentence. */
  text: string;
  /** Where the form posts the token. */
  action: string;
  token: string;
  button: string;
  csrfToken: string;
}

/**
 * What opening a mailed link shows: a button that POSTs its token. Mail scanners fetch every link
 * in a mail before the user does; a GET that used the link up would spend it for them.
 */
export const ConfirmLinkPage: FC<ConfirmLinkProps> = (p) => (
  <div class="card narrow">
    <h1>{p.title}</h1>
    <p>{p.text}</p>
    <form method="post" action={p.action}>
      <CsrfField token={p.csrfToken} />
      <input type="hidden" name="token" value={p.token} />
      <div class="actions">
        <button type="submit" class="btn btn-primary" autofocus>
          {p.button}
        </button>
      </div>
    </form>
  </div>
);
