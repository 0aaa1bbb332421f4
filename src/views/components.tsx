import type { FC } from 'hono/jsx';

/** The hidden `_token` field every form carries (see `verifyCsrf()`). */
export const CsrfField: FC<{ token: string }> = ({ token }) => (
  <input type="hidden" name="_token" value={token} />
);

export interface FieldProps {
  name: string;
  /** The input's id; `field-{name}` unless a page has two fields of one name. */
  id?: string;
  label: string;
  type?: string;
  value?: string | undefined;
  /** Shown under the input, which is marked invalid. */
  errors?: string[] | undefined;
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  hint?: string;
}

/** A labelled input with its validation message, as `.field`. */
export const Field: FC<FieldProps> = (props) => {
  const id = props.id ?? `field-${props.name}`;
  const error = props.errors?.length ? props.errors.join(' ') : undefined;
  const described = [error ? `${id}-error` : '', props.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value ?? ''}
        autocomplete={props.autocomplete}
        required={props.required}
        autofocus={props.autofocus}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
};
