import { useLayoutEffect, useRef, type ClipboardEvent } from 'react';
import { extractPastedCode, formatCodeField } from '../../logic/roomCodeHint';

/**
 * A room code field that formats as you type (upper case; a short code as one block, a full one "XXXXX-XXXXX") and keeps the caret beside the same
 * character; a paste keeps only the code inside the pasted text.
 */
export function RoomCodeInput({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy: string;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    pendingCaret.current = null;
    if (caret !== null && input.current && document.activeElement === input.current) {
      input.current.setSelectionRange(caret, caret);
    }
  }, [value]);

  const apply = (raw: string, caret: number): void => {
    const next = formatCodeField(raw, caret);
    pendingCaret.current = next.caret;
    onChange(next.value);
  };

  const paste = (event: ClipboardEvent<HTMLInputElement>): void => {
    const text = event.clipboardData.getData('text');
    if (!text) return;
    event.preventDefault();
    const field = event.currentTarget;
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    const inserted = extractPastedCode(text);
    const raw = field.value.slice(0, start) + inserted + field.value.slice(end);
    apply(raw, start + inserted.length);
  };

  return (
    <input
      ref={input}
      id={id}
      className="input code-input"
      type="text"
      inputMode="text"
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      placeholder="0A0E4 or XXXXX-XXXXX"
      value={value}
      disabled={disabled}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      onChange={(event) => apply(event.target.value, event.target.selectionStart ?? event.target.value.length)}
      onPaste={paste}
    />
  );
}
