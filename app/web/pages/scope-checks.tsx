import type { Child, FC } from 'hono/jsx';

/** The scope checkboxes of a token or key form, `checked` ticked again after a refused post. */
export const ScopeChecks: FC<{
  scopes: Array<{ id: string; description: string }>;
  checked?: readonly string[];
  children?: Child;
}> = ({ scopes, checked, children }) => (
  <fieldset>
    <legend>Scopes</legend>
    <div class="checks">
      {scopes.map((scope) => (
        <label title={scope.description}>
          <input type="checkbox" name="scopes" value={scope.id} checked={checked?.includes(scope.id)} />{' '}
          <code>{scope.id}</code> <span class="small muted">{scope.description}</span>
        </label>
      ))}
    </div>
    {children}
  </fieldset>
);

/** A field's messages after a refused post; nothing when it has none. */
export const FieldError: FC<{ messages?: string[] }> = ({ messages }) =>
  messages?.length ? <p class="error">{messages.join(' ')}</p> : null;

/**
 * The name field and the scope checkboxes that open the API key and personal token create forms,
 * with what was typed and the messages after a refused post.
 */
export const NameAndScopes: FC<{
  /** The name input's id. */
  id: string;
  placeholder: string;
  scopes: Array<{ id: string; description: string }>;
  old?: { name?: string; scopes?: string[] };
  errors?: Record<string, string[]>;
}> = ({ id, placeholder, scopes, old, errors }) => (
  <>
    <div class="field">
      <label for={id}>Name</label>
      <input
        id={id}
        name="name"
        type="text"
        autocomplete="off"
        placeholder={placeholder}
        value={old?.name ?? ''}
      />
      <FieldError messages={errors?.name} />
    </div>
    <ScopeChecks scopes={scopes} checked={old?.scopes}>
      <FieldError messages={errors?.scopes} />
    </ScopeChecks>
  </>
);
