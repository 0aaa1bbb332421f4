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
