/**
 * A narrow text field for a whole number under the host form's Advanced (typed as text, so a half-typed value is
 * the player's, not the browser's): its label, and below it the error when there is one, else the hint.
 */
export function WholeNumberField({
  id,
  label,
  placeholder,
  value,
  error,
  hint,
  onChange,
}: {
  id: string;
  label: string;
  /** What leaving it empty means. */
  placeholder: string;
  value: string;
  error: string | null;
  hint: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input input-narrow"
        type="text"
        inputMode="numeric"
        placeholder={placeholder}
        value={value}
        aria-invalid={error !== null}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className={error ? 'field-error' : 'field-hint'}>
        {error ?? hint}
      </p>
    </div>
  );
}
