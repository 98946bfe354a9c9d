/** A small spinning ring for buttons and status lines; decorative, the text next to it says what happens. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
