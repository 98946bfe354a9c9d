/**
 * JSON text the way Python's json.dumps writes it by default (", " and ": " separators, non-ASCII as \uXXXX),
 * so our replies to reference searchers are byte-for-byte what a reference server would send.
 */
export type PythonJsonValue = string | number | boolean | null;

function asciiString(text: string): string {
  // Python escapes everything outside printable ASCII (space..~), DEL included, one UTF-16 unit at a time.
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Serializes a flat object with Python's default json.dumps layout; key order is kept. */
export function pythonJsonObject(fields: ReadonlyArray<readonly [string, PythonJsonValue]>): string {
  const parts = fields.map(([key, value]) => {
    const text = typeof value === 'string' ? asciiString(value) : JSON.stringify(value);
    return `${asciiString(key)}: ${text}`;
  });
  return `{${parts.join(', ')}}`;
}
